import { ExecutionContext, Injectable, OnModuleInit } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard, PassportStrategy } from '@nestjs/passport';
import type { Request } from 'express';
import { Strategy as BearerStrategy } from 'passport-http-bearer';
import { AccessStrategyRegistry, type AccessStrategy, Clock, hashSecret, isIpAddress, Unauthorized, ValidationFailed } from '@app/common';
import { RoleNotInCertificate, ScopeNotGranted, TokenKindNotAllowed } from '../auth.errors';
import { Psd2CertificateStrategy } from '../certificate/psd2-certificate.strategy';
import { ROLE_OF_SCOPE, type Scope } from '../scopes';
import { type AccessTokenGrant, TokenRepository } from '../tokens/token.repository';
import { TOKEN_KINDS, type TokenKind } from '../tokens/token-kinds';
import type { Psd2Caller } from './psd2-caller';
import { ALLOWED_TOKEN_KINDS, PSD2_TOKEN_STRATEGY, PSU_IP_REQUIRED_FOR, REQUIRED_SCOPE } from './psd2-token.decorators';

const PASSPORT_NAME = 'sandbox-psd2-token';

/** passport-http-bearer reads the bearer value; the token is found by its SHA-256 in one indexed query. */
@Injectable()
export class Psd2TokenPassportStrategy extends PassportStrategy(BearerStrategy, PASSPORT_NAME) {
  constructor(
    private readonly tokens: TokenRepository,
    private readonly clock: Clock,
  ) {
    super();
  }

  async validate(token: string): Promise<AccessTokenGrant | false> {
    const grant = await this.tokens.findAccessToken(hashSecret(token));
    return grant && grant.expiresAt > this.clock.now() ? grant : false;
  }
}

class Psd2TokenGuard extends AuthGuard(PASSPORT_NAME) {
  override handleRequest<T>(error: unknown, grant: T): T {
    if (error) throw error;
    if (!grant) throw new Unauthorized('The access token is missing, unknown or expired (Authorization: Bearer <access_token>).');
    return grant;
  }
}

/**
 * The `@Psd2Bearer()` policy: certificate, then token (unknown, expired or another TPP's → 401), then
 * the 403s in the order of contract §1: token kind, scope, certificate role.
 */
@Injectable()
export class Psd2TokenAccessStrategy implements AccessStrategy, OnModuleInit {
  readonly name = PSD2_TOKEN_STRATEGY;
  private readonly guard = new Psd2TokenGuard();

  constructor(
    private readonly certificates: Psd2CertificateStrategy,
    private readonly reflector: Reflector,
    private readonly registry: AccessStrategyRegistry,
  ) {}

  onModuleInit(): void {
    this.registry.register(this);
  }

  async authenticate(context: ExecutionContext): Promise<Psd2Caller> {
    const request = context.switchToHttp().getRequest<Request & { user?: AccessTokenGrant }>();
    const client = await this.certificates.identify(request);
    await this.guard.canActivate(context);
    const token = request.user as AccessTokenGrant;
    if (token.tppId !== client.tpp.id) throw new Unauthorized('This access token was issued to another TPP.');
    const kinds = this.metadata<TokenKind[]>(ALLOWED_TOKEN_KINDS, context) ?? [...TOKEN_KINDS];
    if (!kinds.includes(token.kind)) throw new TokenKindNotAllowed(token.kind);
    const scope = this.metadata<Scope>(REQUIRED_SCOPE, context);
    if (scope) {
      if (!token.scopes.includes(scope)) throw new ScopeNotGranted(scope);
      if (!client.roles.includes(ROLE_OF_SCOPE[scope])) throw new RoleNotInCertificate(scope, ROLE_OF_SCOPE[scope]);
    }
    const psuIpFor = this.metadata<TokenKind[]>(PSU_IP_REQUIRED_FOR, context) ?? [];
    if (psuIpFor.includes(token.kind) && !isIpAddress(request.headers['psu-ip-address'])) {
      throw new ValidationFailed('The PSU-IP-Address header (the PSU\'s IPv4 or IPv6 address) is required on this call with this token');
    }
    return { ...client, token };
  }

  private metadata<T>(key: string, context: ExecutionContext): T | undefined {
    return this.reflector.getAllAndOverride<T>(key, [context.getHandler(), context.getClass()]);
  }
}
