import { ExecutionContext, Injectable, OnModuleInit } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { AccessStrategyRegistry, type AccessStrategy, BearerAuthenticator, certificateBindingRefusal, Clock, hashSecret, type PrincipalOf, RequestHints, tokenExpiredParams, Unauthorized } from '@app/common';
import { ScopeNotGranted, TokenKindNotAllowed } from '../auth.errors';
import { Psd2CertificateStrategy } from '../certificate/psd2-certificate.strategy';
import type { Psd2Client } from '../certificate/psd2-client';
import { requireRolesFor, type Scope } from '../scopes';
import { type IssuedAccessToken, TokenRepository } from '../tokens/token.repository';
import { TOKEN_KINDS, type TokenKind } from '../tokens/token-kinds';
import { ALLOWED_TOKEN_KINDS, PSD2_TOKEN_STRATEGY, REQUIRED_SCOPE } from './psd2-token.decorators';

/**
 * The `@Psd2Bearer()` policy: certificate, then token (unknown, expired, another TPP's, or bound to
 * another certificate or port → 401), then the 403s in the order of contract §1: token kind, scope,
 * certificate role. The binding is part of the cached grant: checking it costs no query (contract §16).
 */
@Injectable()
export class Psd2TokenAccessStrategy implements AccessStrategy, OnModuleInit {
  readonly name = PSD2_TOKEN_STRATEGY;
  /** The token by its SHA-256, one indexed query; unknown or expired is 401. */
  private readonly bearer = new BearerAuthenticator<IssuedAccessToken>(async (value, request) => {
    const grant = await this.tokens.findAccessToken(hashSecret(value));
    if (grant && grant.expiresAt <= this.clock.now()) this.expired.set(request, grant);
    return grant && grant.expiresAt > this.clock.now() ? grant : null;
  }, 'The access token is missing, unknown or expired (Authorization: Bearer <access_token>).');
  /** A request's refused token that had expired, for the hint of its 401 (contract §14 TOKEN_EXPIRED). */
  private readonly expired = new WeakMap<Request, IssuedAccessToken>();

  constructor(
    private readonly certificates: Psd2CertificateStrategy,
    private readonly tokens: TokenRepository,
    private readonly clock: Clock,
    private readonly reflector: Reflector,
    private readonly registry: AccessStrategyRegistry,
  ) {}

  onModuleInit(): void {
    this.registry.register(this);
  }

  async authenticate(context: ExecutionContext): Promise<PrincipalOf<'psd2-caller'>> {
    const request = context.switchToHttp().getRequest<Request>();
    const client = await this.certificates.identify(request);
    const token = await this.bearer.authenticate(request).catch((error: unknown) => {
      this.hintExpired(request, client);
      throw error;
    });
    if (token.tppId !== client.tpp.id) throw new Unauthorized('This access token was issued to another TPP.', { bearerRefused: true });
    const unbound = certificateBindingRefusal('access token', token.certificateThumbprint, client.certificateBinding);
    if (unbound) throw new Unauthorized(unbound, { bearerRefused: true });
    const kinds = this.metadata<TokenKind[]>(ALLOWED_TOKEN_KINDS, context) ?? [...TOKEN_KINDS];
    if (!kinds.includes(token.kind)) throw new TokenKindNotAllowed(token.kind);
    const scope = this.metadata<Scope>(REQUIRED_SCOPE, context);
    if (scope) {
      if (!token.scopes.includes(scope)) throw new ScopeNotGranted(scope);
      requireRolesFor([scope], client.roles);
    }
    return { kind: 'psd2-caller', caller: { ...client, token } };
  }

  /** TOKEN_EXPIRED (contract §14, bank §5.5): when and after how long this TPP's own token expired. */
  private hintExpired(request: Request, client: Psd2Client): void {
    const token = this.expired.get(request);
    // Only to its holder: the TPP, with the certificate the token is bound to (contract §16).
    if (!token || token.tppId !== client.tpp.id || token.certificateThumbprint !== client.certificateBinding) return;
    RequestHints.raise('TOKEN_EXPIRED', tokenExpiredParams(token, this.clock.now(), renewalOf(token)));
  }

  private metadata<T>(key: string, context: ExecutionContext): T | undefined {
    return this.reflector.getAllAndOverride<T>(key, [context.getHandler(), context.getClass()]);
  }
}

/** How the holder of an expired PSD2 token gets a new one (bank §4.1, §5.5; contract §5). */
function renewalOf(token: IssuedAccessToken): string {
  if (token.kind === 'non_authenticated') return 'Ask for a new one (grant_type=non_authenticated_token)';
  if (token.kind === 'authorize' && token.scopes.includes('AIS')) return 'Refresh it (grant_type=refresh_token) or authorize again';
  return 'Authenticate or authorize again: this flow gives no refresh token';
}
