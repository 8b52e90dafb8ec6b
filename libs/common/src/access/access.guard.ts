import { CanActivate, ExecutionContext, Injectable, Logger } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { Unauthorized } from '../errors/domain-error';
import { ACCESS_POLICY, AccessPolicy } from './access.decorators';
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
    const options = 'options' in policy ? policy.options : undefined;
    request.principal = await this.strategies.get(policy.strategy).authenticate(context, options);
    return true;
  }
}
