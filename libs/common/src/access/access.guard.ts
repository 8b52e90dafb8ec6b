import { CanActivate, ExecutionContext, Injectable, Logger } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { Unauthorized } from '../errors/domain-error';
import { ACCESS_POLICY, AccessPolicy, ADMIN_STRATEGY } from './access.decorators';
import { isMutualTls } from './mutual-tls';
import { RequestWithPrincipal } from './access-strategy';
import { AccessStrategyRegistry } from './access-strategy.registry';

/** The one global guard: denies by default and delegates to the strategy the route's policy names. */
@Injectable()
export class AccessGuard implements CanActivate {
  private readonly logger = new Logger(AccessGuard.name);

  constructor(
    private readonly reflector: Reflector,
    private readonly strategies: AccessStrategyRegistry,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const policy = this.reflector.getAllAndOverride<AccessPolicy | undefined>(ACCESS_POLICY, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (!policy) {
      this.logger.error(`${context.getClass().name}.${context.getHandler().name} declares no access policy; refused`);
      throw new Unauthorized();
    }
    if (policy.strategy === 'public') return true;
    const request = context.switchToHttp().getRequest<RequestWithPrincipal>();
    // Strict mode (contract §16): on the TLS port every credentialed route but the admin API needs a
    // valid client certificate first, whatever else it reads (PSD2 certificate, partner key, …).
    if (policy.strategy !== ADMIN_STRATEGY && isMutualTls(request)) await this.strategies.clientCertificateGate().require(request);
    const options = 'options' in policy ? policy.options : undefined;
    request.principal = await this.strategies.get(policy.strategy).authenticate(context, options);
    return true;
  }
}
