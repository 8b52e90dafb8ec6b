import { ExecutionContext, Injectable, OnModuleInit } from '@nestjs/common';
import { AuthGuard, PassportStrategy } from '@nestjs/passport';
import { Strategy as BearerStrategy } from 'passport-http-bearer';
import { SandboxConfig } from '../config/sandbox-config';
import { Forbidden, Unauthorized } from '../errors/domain-error';
import { hashSecret, secretMatchesHash } from '../values/secrets';
import { ADMIN_STRATEGY } from './access.decorators';
import { AccessStrategy } from './access-strategy';
import { AccessStrategyRegistry } from './access-strategy.registry';

export interface AdminPrincipal {
  kind: 'admin';
}

const PASSPORT_NAME = 'sandbox-admin-key';

/** passport-http-bearer reads the bearer value; only its SHA-256 is compared, in constant time. */
@Injectable()
export class AdminKeyPassportStrategy extends PassportStrategy(BearerStrategy, PASSPORT_NAME) {
  private readonly keyHash: string | null;

  constructor(config: SandboxConfig) {
    super();
    this.keyHash = config.adminApiKey ? hashSecret(config.adminApiKey) : null;
  }

  validate(token: string): AdminPrincipal | false {
    return this.keyHash !== null && secretMatchesHash(token, this.keyHash) ? { kind: 'admin' } : false;
  }
}

class AdminKeyGuard extends AuthGuard(PASSPORT_NAME) {
  override handleRequest<T>(error: unknown, principal: T): T {
    if (error) throw error;
    if (!principal) throw new Unauthorized('The admin API needs Authorization: Bearer <ADMIN_API_KEY>.');
    return principal;
  }
}

/** The `@AdminOnly()` policy: 403 for everyone while no ADMIN_API_KEY is configured (contract §3). */
@Injectable()
export class AdminAccessStrategy implements AccessStrategy, OnModuleInit {
  readonly name = ADMIN_STRATEGY;
  private readonly guard = new AdminKeyGuard();

  constructor(
    private readonly config: SandboxConfig,
    private readonly registry: AccessStrategyRegistry,
  ) {}

  onModuleInit(): void {
    this.registry.register(this);
  }

  async authenticate(context: ExecutionContext): Promise<AdminPrincipal> {
    if (!this.config.adminApiKey) {
      throw new Forbidden('The admin API is closed: the service was started without ADMIN_API_KEY.');
    }
    await this.guard.canActivate(context);
    return context.switchToHttp().getRequest().user as AdminPrincipal;
  }
}
