import { Injectable, OnModuleInit } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import {
  certificateBindingOf,
  certificateBindingRefusal,
  Clock,
  hashSecret,
  hashUuidSecret,
  isUuid,
  newSecret,
  type PersonalNumber,
  PersonalNumberReader,
  RequestCaller,
  RequestHints,
  tokenExpiredParams,
  Unauthorized,
} from '@app/common';
import { formParameter, invalidGrant, invalidRequest, OAuthError, refusedWithoutKyc } from '@app/auth';
import { EndUserCredentials, type Partner, PartnerCredentials, UserService } from '@app/directory';
import { AuthorizeQueryDto, AuthorizeResponseDto, ENTERPRISE_SCOPES, EnterpriseTokenResponseDto } from './enterprise.dto';
import type { EnterpriseTokenKind } from './enterprise.entities';
import { EnterpriseTokenRepository, type IssuedEnterpriseToken } from './enterprise-token.repository';

/** Bank §4.6, §5.5, §8: enterprise access tokens live 300 s. */
export const ENTERPRISE_TOKEN_LIFETIME_S = 300;
/** Contract §2: a successful authorization must be exchanged within 5 minutes. */
export const PENDING_CODE_WINDOW_S = 300;

/**
 * The enterprise authentication interface (bank §4.6; contract §2, §3): client-credentials tokens
 * that stand for the partner on its routes, and end-user tokens that read that user's loans.
 */
@Injectable()
export class EnterpriseService implements OnModuleInit {
  constructor(
    private readonly tokens: EnterpriseTokenRepository,
    private readonly partnerCredentials: PartnerCredentials,
    private readonly endUserCredentials: EndUserCredentials,
    private readonly users: UserService,
    private readonly personalNumbers: PersonalNumberReader,
    private readonly clock: Clock,
  ) {}

  /**
   * Contract §8, a user seeded again is as if new: the user's end-user tokens and pending codes of
   * every partner go (the next request with one is 401, an exchange invalid_grant).
   */
  forgetUser(personalNumber: string): Promise<void> {
    return this.tokens.deleteOfEndUser(personalNumber);
  }

  onModuleInit(): void {
    this.partnerCredentials.register(async (bearer, request) => {
      const token = await this.valid(bearer, 'client_credentials', request);
      return token ? ({ id: token.partnerId, name: 'client credentials' } satisfies Partner) : null;
    });
    this.endUserCredentials.register(async (bearer, request) => {
      const token = await this.valid(bearer, 'end_user', request);
      return token?.personalNumber ? { personalNumber: token.personalNumber, scopes: token.scopes, partnerId: token.partnerId } : null;
    });
  }

  /**
   * `form` is the form-urlencoded body; unknown parameters are ignored (RFC 6749 §3.2). The token is
   * bound to `certificateBinding` (the TLS handshake's client certificate, null on the plain port; contract §16).
   */
  async issue(form: Record<string, unknown>, partner: Partner, certificateBinding: string | null): Promise<EnterpriseTokenResponseDto> {
    const grantType = formParameter(form, 'grant_type');
    if (grantType === 'client_credentials') {
      return this.token({ kind: 'client_credentials', partnerId: partner.id, personalNumber: null, scopes: [], certificateThumbprint: certificateBinding }, 'client_credentials');
    }
    if (grantType === 'pending_authorization_code') return this.exchange(formParameter(form, 'pending_code'), partner, certificateBinding);
    throw new OAuthError('unsupported_grant_type', `grant_type ${grantType} is not supported; use client_credentials or pending_authorization_code`);
  }

  /** In the sandbox the eid is not invoked: the authorization counts as successful at once (bank §4.6). */
  async authorize(query: AuthorizeQueryDto, partner: Partner): Promise<AuthorizeResponseDto> {
    const personalNumber = this.personalNumbers.read(query.user_id, 'user_id');
    const scopes = ENTERPRISE_SCOPES.filter((scope) => query.scope.split(',').map((s) => s.trim()).includes(scope));
    const pendingCode = randomUUID();
    const autostartToken = randomUUID();
    await this.tokens.insertAuthorization({
      pendingCodeHash: hashUuidSecret(pendingCode),
      partnerId: partner.id,
      clientId: query.client_id,
      personalNumber,
      scopes,
      autostartTokenHash: hashUuidSecret(autostartToken),
      createdAt: this.clock.now(),
      exchangedAt: null,
    });
    return { pending_authorization_code: pendingCode, autostart_token: autostartToken };
  }

  private async exchange(pendingCode: string, partner: Partner, certificateBinding: string | null): Promise<EnterpriseTokenResponseDto> {
    if (!isUuid(pendingCode)) throw invalidRequest('pending_code must be the pending_authorization_code that authorize answered');
    const authorization = await this.tokens.findAuthorization(hashUuidSecret(pendingCode), partner.id);
    if (!authorization) throw invalidGrant('Unknown pending_code (or another partner\'s).');
    if (authorization.exchangedAt) throw invalidGrant('The pending_code has already been exchanged.');
    const now = this.clock.now();
    if (now.getTime() - authorization.createdAt.getTime() >= PENDING_CODE_WINDOW_S * 1000) {
      throw new OAuthError('expired_token', 'The pending_code was not exchanged within 5 minutes.');
    }
    // Any well-formed personal number is accepted (bank §4.6); a sandbox user without KYC gets none (contract §2).
    const user = await this.users.find(authorization.personalNumber as PersonalNumber);
    if (user && !user.kycCompleted) throw refusedWithoutKyc(user);
    if (!(await this.tokens.claimExchange(authorization.pendingCodeHash, now))) throw invalidGrant('The pending_code has already been exchanged.');
    return this.token(
      { kind: 'end_user', partnerId: partner.id, personalNumber: authorization.personalNumber, scopes: authorization.scopes, certificateThumbprint: certificateBinding },
      'authorize',
    );
  }

  private async token(
    grant: { kind: 'client_credentials' | 'end_user'; partnerId: string; personalNumber: string | null; scopes: string[]; certificateThumbprint: string | null },
    authMethod: 'client_credentials' | 'authorize',
  ): Promise<EnterpriseTokenResponseDto> {
    const value = newSecret();
    const now = this.clock.now();
    await this.tokens.insertToken(hashSecret(value), { ...grant, expiresAt: new Date(now.getTime() + ENTERPRISE_TOKEN_LIFETIME_S * 1000) }, now);
    return {
      access_token: value,
      expires_in: ENTERPRISE_TOKEN_LIFETIME_S,
      token_type: 'bearer',
      auth_method: authMethod,
      ...(grant.kind === 'end_user' ? { scope: grant.scopes.join(' ') } : {}),
    };
  }

  /**
   * The unexpired token of `kind` that the bearer value is, else null (401). An expired one still
   * identified its holder: the journal records the partner (client credentials) or the end user as
   * the caller of the refused request, with TOKEN_EXPIRED (contract §14, bank §5.5), as for PSD2
   * tokens. A token of the other kind is no credential here, expired or not: nothing to say. One
   * bound to another certificate, or obtained on the other port, is refused saying so (401, contract §16).
   */
  private async valid(bearer: string, kind: EnterpriseTokenKind, request: IncomingMessage): Promise<IssuedEnterpriseToken | null> {
    const token = await this.tokens.findToken(hashSecret(bearer));
    if (token?.kind !== kind) return null;
    const unbound = certificateBindingRefusal('access token', token.certificateThumbprint, certificateBindingOf(request));
    if (unbound) throw new Unauthorized(unbound, { bearerRefused: true });
    const now = this.clock.now();
    if (token.expiresAt > now) return token;
    RequestCaller.identify(request, token.kind === 'end_user' && token.personalNumber ? { kind: 'end_user', id: token.personalNumber } : { kind: 'partner', id: token.partnerId });
    const renewal = token.kind === 'end_user' ? 'Authorize the user again (GET /api/auth/1.0/authorize)' : 'Ask for a new one (grant_type=client_credentials)';
    RequestHints.raise('TOKEN_EXPIRED', tokenExpiredParams(token, now, renewal));
    return null;
  }
}
