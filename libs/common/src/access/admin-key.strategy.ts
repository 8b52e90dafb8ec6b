import { createParamDecorator, ExecutionContext, Injectable, OnModuleInit } from '@nestjs/common';
import type { Request } from 'express';
import { SandboxConfig } from '../config/sandbox-config';
import { Forbidden } from '../errors/domain-error';
import { parseSandboxId, type RequestWithSandbox } from '../sandbox/request-sandbox';
import { DEFAULT_SANDBOX_ID } from '../sandbox/sandbox-context';
import { SandboxRegistry, UnknownSandbox } from '../sandbox/sandbox-registry';
import { hashSecret, secretMatchesHash } from '../values/secrets';
import { ADMIN_STRATEGY } from './access.decorators';
import { callerIpOf, selfServiceCallerOf } from '../http/caller-ip.decorator';
import { AccessStrategy, type PrincipalOf, type RequestWithPrincipal } from './access-strategy';
import { AccessStrategyRegistry } from './access-strategy.registry';
import { BearerAuthenticator } from './bearer-token';

export type AdminPrincipal = PrincipalOf<'admin'>;
export type SelfServicePrincipal = PrincipalOf<'self-service'>;

/** Whether the request offers a bearer value anywhere passport-http-bearer reads one (RFC 6750 §2). */
function presentsBearer(request: Request): boolean {
  const body = request.body as Record<string, unknown> | undefined;
  const query = request.query as Record<string, unknown> | undefined;
  return request.headers.authorization !== undefined || body?.access_token !== undefined || query?.access_token !== undefined;
}

/**
 * Who creates a sandbox (`@AdminOrSelfService()` routes): the self-service caller (its IPv4 address
 * or IPv6 /64), for the rate limit; null for the operator key, which is not rate limited (contract
 * §13 Self-service).
 */
export const SelfServiceCaller = createParamDecorator((_: unknown, context: ExecutionContext): string | null => {
  const principal = context.switchToHttp().getRequest<RequestWithPrincipal>().principal;
  return principal?.kind === 'self-service' ? principal.caller : null;
});

/**
 * The sandbox a request administers: the lifecycle routes name it as their `sandbox_id` path
 * parameter (`GET|DELETE /sandboxes/{id}`, `POST /sandboxes/{id}/reset`), the admin routes are the
 * request's own sandbox; `POST|GET /sandboxes` administer the service (the default sandbox's key,
 * the operator key, opens them). null: a malformed id, which no sandbox key opens.
 */
/** Whether the route names its sandbox in the path (`/sandboxes/{sandbox_id}…`, the lifecycle routes). */
function namesSandbox(request: Request): boolean {
  return (request.params as Record<string, string> | undefined)?.sandbox_id !== undefined;
}

function administeredSandbox(request: Request & RequestWithSandbox): string | null {
  const named = (request.params as Record<string, string> | undefined)?.sandbox_id;
  if (named === undefined) return request.sandboxId ?? DEFAULT_SANDBOX_ID;
  try {
    return parseSandboxId(named);
  } catch {
    return null;
  }
}

/**
 * The `@AdminOnly()` policy (contract §3, §13 Keys): `Authorization: Bearer <key>`, compared by
 * SHA-256 in constant time. The operator key (ADMIN_API_KEY) opens every sandbox's admin routes and
 * the lifecycle; a created sandbox's own admin key opens its admin routes and its own GET, reset and
 * DELETE, and nothing else (401). Without ADMIN_API_KEY the default sandbox's admin is 403 to
 * everyone, while a created sandbox's own key still works. With `selfService` (POST /sandboxes) and
 * SANDBOX_SELF_SERVICE on, a request that offers no key at all passes as self-service.
 */
@Injectable()
export class AdminAccessStrategy implements AccessStrategy, OnModuleInit {
  readonly name = ADMIN_STRATEGY;
  private readonly keyHash: string | null;

  constructor(
    private readonly config: SandboxConfig,
    private readonly registry: AccessStrategyRegistry,
    private readonly sandboxes: SandboxRegistry,
  ) {
    this.keyHash = config.adminApiKey ? hashSecret(config.adminApiKey) : null;
  }

  onModuleInit(): void {
    this.registry.register(this);
  }

  async authenticate(context: ExecutionContext, options?: Record<string, unknown>): Promise<AdminPrincipal | SelfServicePrincipal> {
    const request = context.switchToHttp().getRequest<Request & RequestWithSandbox>();
    if (options?.selfService === true && this.config.sandboxSelfService && !presentsBearer(request)) {
      return { kind: 'self-service', ip: callerIpOf(request), caller: selfServiceCallerOf(request.ip ?? '') };
    }
    const sandboxId = administeredSandbox(request);
    // A lifecycle route naming a sandbox that does not exist (or no longer: its own key went with it)
    // is 404 before the key, as every route under an unknown sandbox is (contract §1 order, §13).
    if (sandboxId !== null && sandboxId !== DEFAULT_SANDBOX_ID && namesSandbox(request) && !(await this.sandboxes.exists(sandboxId))) {
      throw new UnknownSandbox(sandboxId);
    }
    if (sandboxId === DEFAULT_SANDBOX_ID) {
      if (!this.config.adminApiKey) throw new Forbidden('The admin API is closed: the service was started without ADMIN_API_KEY.');
      return new BearerAuthenticator((key) => this.verify(key, null), 'The admin API needs Authorization: Bearer <ADMIN_API_KEY>.').authenticate(request);
    }
    return new BearerAuthenticator(
      (key) => this.verify(key, sandboxId),
      "This sandbox's admin API needs Authorization: Bearer <its admin_key or ADMIN_API_KEY>.",
    ).authenticate(request);
  }

  /** The operator key, else the administered sandbox's own admin key (null: none applies). */
  private async verify(key: string, sandboxId: string | null): Promise<AdminPrincipal | null> {
    if (this.keyHash !== null && secretMatchesHash(key, this.keyHash)) return { kind: 'admin' };
    if (sandboxId === null) return null;
    const ownKeyHash = await this.sandboxes.adminKeyHash(sandboxId);
    return ownKeyHash && secretMatchesHash(key, ownKeyHash) ? { kind: 'admin' } : null;
  }
}
