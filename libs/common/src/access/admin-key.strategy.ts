import { ExecutionContext, Injectable, OnModuleInit } from '@nestjs/common';
import type { Request } from 'express';
import { SandboxConfig } from '../config/sandbox-config';
import { Forbidden } from '../errors/domain-error';
import { hashSecret, secretMatchesHash } from '../values/secrets';
import { ADMIN_STRATEGY } from './access.decorators';
import { AccessStrategy, type PrincipalOf } from './access-strategy';
import { AccessStrategyRegistry } from './access-strategy.registry';
import { BearerAuthenticator } from './bearer-token';

export type AdminPrincipal = PrincipalOf<'admin'>;

/**
 * The `@AdminOnly()` policy: `Authorization: Bearer <ADMIN_API_KEY>`, compared by SHA-256 in constant
 * time; 403 for everyone while no ADMIN_API_KEY is configured (contract §3).
 */
@Injectable()
export class AdminAccessStrategy implements AccessStrategy, OnModuleInit {
  readonly name = ADMIN_STRATEGY;
  private readonly keyHash: string | null;
  private readonly bearer = new BearerAuthenticator<AdminPrincipal>(
    (key) => Promise.resolve(this.keyHash !== null && secretMatchesHash(key, this.keyHash) ? { kind: 'admin' } : null),
    'The admin API needs Authorization: Bearer <ADMIN_API_KEY>.',
  );

  constructor(
    private readonly config: SandboxConfig,
    private readonly registry: AccessStrategyRegistry,
  ) {
    this.keyHash = config.adminApiKey ? hashSecret(config.adminApiKey) : null;
  }

  onModuleInit(): void {
    this.registry.register(this);
  }

  authenticate(context: ExecutionContext): Promise<AdminPrincipal> {
    if (!this.config.adminApiKey) {
      throw new Forbidden('The admin API is closed: the service was started without ADMIN_API_KEY.');
    }
    return this.bearer.authenticate(context.switchToHttp().getRequest<Request>());
  }
}
