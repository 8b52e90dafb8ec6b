import { Injectable } from '@nestjs/common';
import {
  addDays,
  certificateBindingRefusal,
  Clock,
  formatStockholmOffset,
  hashSecret,
  hashUuidSecret,
  isUuid,
  newSecret,
  type PersonalNumber,
  PersonalNumberReader,
  RequestHints,
  stockholmInstant,
  stockholmToday,
  ValidationFailed,
} from '@app/common';
import { UserService } from '@app/directory';
import { EidOrderService, isOpenOrder } from '@app/eid';
import { Psd2AuthorizationRepository } from '../authorization/psd2-authorization.repository';
import type { Psd2Client } from '../certificate/psd2-client';
import { type Scope, scopesOfRoles, scopeText } from '../scopes';
import { invalidGrant, invalidRequest, OAuthError, refusedWithoutKyc } from './oauth-error';
import { TokenResponseDto } from './token.dto';
import { TokenRepository } from './token.repository';
import { formParameter } from './form-body.decorator';
import {
  ACCESS_TOKEN_LIFETIME_S,
  CONSENT_LIFETIME_S,
  PENDING_CODE_EXCHANGE_WINDOW_S,
  REFRESH_TOKEN_LIFETIME_S,
  REFRESHED_SCOPES,
  REFRESHED_TOKEN_LIFETIME_S,
  REFRESH_USES_PER_DAY,
  type TokenKind,
} from './token-kinds';

const GRANT_TYPES = ['pending_authorization_code', 'refresh_token', 'non_authenticated_token'] as const;
type GrantType = (typeof GRANT_TYPES)[number];

const seconds = (s: number) => s * 1000;

/** POST /psd2/auth/1.0/token: the three grants of contract §5 with the failures of the contract §2 table. */
@Injectable()
export class TokenService {
  constructor(
    private readonly tokens: TokenRepository,
    private readonly authorizations: Psd2AuthorizationRepository,
    private readonly eid: EidOrderService,
    private readonly users: UserService,
    private readonly personalNumbers: PersonalNumberReader,
    private readonly clock: Clock,
  ) {}

  /** `form` is the form-urlencoded body; unknown parameters are ignored (RFC 6749 §3.2). */
  issue(form: Record<string, unknown>, client: Psd2Client): Promise<TokenResponseDto> {
    const grantType = formParameter(form, 'grant_type');
    if (!(GRANT_TYPES as readonly string[]).includes(grantType)) {
      throw new OAuthError('unsupported_grant_type', `grant_type ${grantType} is not supported; use one of ${GRANT_TYPES.join(', ')}`);
    }
    switch (grantType as GrantType) {
      case 'pending_authorization_code':
        return this.exchangePendingCode(formParameter(form, 'pending_code'), client);
      case 'refresh_token':
        return this.refresh(formParameter(form, 'refresh_token'), client);
      case 'non_authenticated_token':
        return this.nonAuthenticated(formParameter(form, 'user_id'), client);
    }
  }

  /** Exchange of a COMPLETE authenticate or authorize operation; single use, within 5 minutes. */
  private async exchangePendingCode(pendingCode: string, client: Psd2Client): Promise<TokenResponseDto> {
    if (!isUuid(pendingCode)) throw invalidRequest('pending_code must be the UUID the authenticate or authorize call answered');
    const authorization = await this.authorizations.findOwned(hashUuidSecret(pendingCode), client.tpp.id);
    if (!authorization) throw invalidGrant('Unknown pending_code (or another TPP\'s).');
    const order = await this.eid.get(authorization.eidOrderId);
    const now = this.clock.now();
    // Bank §3.1: exchange only once status has answered COMPLETE. A code exchanged while still
    // pending, or after failing, was never read as COMPLETE either (contract §14).
    if (order.status !== 'COMPLETE') RequestHints.raise('EXCHANGE_BEFORE_COMPLETE', { state: isOpenOrder(order) ? 'PENDING' : 'FAILED' });
    if (isOpenOrder(order)) {
      throw new OAuthError('authorization_pending', 'The user has not completed the eid authentication yet; poll status until COMPLETE.');
    }
    if (order.status === 'FAILED') {
      if (order.hintCode === 'EXPIRED_TRANSACTION') throw new OAuthError('expired_token', 'The eid authentication expired.');
      throw invalidGrant(`The eid authentication failed (${order.hintCode}).`);
    }
    if (authorization.exchangedAt) throw invalidGrant('The pending_code has already been exchanged.');
    if (order.finishedAt && now.getTime() - order.finishedAt.getTime() >= seconds(PENDING_CODE_EXCHANGE_WINDOW_S)) {
      throw new OAuthError('expired_token', 'The pending_code was not exchanged within 5 minutes of completion.');
    }
    await this.requireKyc(order.personalNumber);
    // Allowed, but the documented flow reads COMPLETE from status first (contract §14, bank §3.1).
    if (order.finalReportedAt === null) RequestHints.raise('EXCHANGE_BEFORE_COMPLETE', { state: 'COMPLETE' });
    if (!(await this.authorizations.claimExchange(authorization.pendingCodeHash, now))) {
      throw invalidGrant('The pending_code has already been exchanged.');
    }
    const grant = { tppId: client.tpp.id, personalNumber: order.personalNumber, scopes: authorization.scopes };
    const consentId = await this.tokens.insertConsent({ ...grant, grantedAt: now, expiresAt: new Date(now.getTime() + seconds(CONSENT_LIFETIME_S)) });
    const kind: TokenKind = authorization.flow;
    const response = await this.accessToken({ ...grant, kind, lifetimeS: ACCESS_TOKEN_LIFETIME_S[authorization.flow], certificateThumbprint: client.certificateBinding }, now);
    // Only the authorize flow, and only for AIS, yields a refresh token (bank §4.1, contract §5).
    if (authorization.flow === 'authorize' && authorization.scopes.includes('AIS')) {
      const refreshToken = newSecret();
      await this.tokens.insertRefreshToken({
        tokenHash: hashSecret(refreshToken),
        tppId: client.tpp.id,
        personalNumber: order.personalNumber,
        consentId,
        issuedAt: now,
        expiresAt: new Date(now.getTime() + seconds(REFRESH_TOKEN_LIFETIME_S)),
        certificateThumbprint: client.certificateBinding,
      });
      return { ...response, refresh_token: refreshToken, refresh_token_expires_in: REFRESH_TOKEN_LIFETIME_S };
    }
    return response;
  }

  /**
   * An AIS-only access token of 5 minutes; the refresh token is not rotated (contract §5). The use
   * is counted and the token issued in one statement; only when it refuses are the reasons read,
   * in the order the contract §2 table answers them (unknown or bound to another certificate or
   * port (§16), no KYC, expired or used up).
   */
  private async refresh(refreshToken: string, client: Psd2Client): Promise<TokenResponseDto> {
    const tokenHash = hashSecret(refreshToken);
    const now = this.clock.now();
    const today = stockholmToday(now);
    const accessToken = newSecret();
    const access = { tokenHash: hashSecret(accessToken), expiresAt: new Date(now.getTime() + seconds(REFRESHED_TOKEN_LIFETIME_S)) };
    const use = await this.tokens.useRefreshToken({ tokenHash, tppId: client.tpp.id, certificateThumbprint: client.certificateBinding }, now, today, access);
    if (!use) {
      const held = await this.tokens.findRefreshToken(tokenHash, client.tpp.id);
      if (!held) throw invalidGrant('Unknown refresh_token (or another TPP\'s).');
      const unbound = certificateBindingRefusal('refresh_token', held.certificateThumbprint, client.certificateBinding);
      if (unbound) throw invalidGrant(unbound);
      await this.requireKyc(held.personalNumber);
      if (await this.tokens.refreshLimitReached(tokenHash, client.tpp.id, today)) {
        RequestHints.raise('REFRESH_LIMIT_REACHED', { retryAt: formatStockholmOffset(stockholmInstant(addDays(today, 1))) });
      }
      throw invalidGrant('The refresh_token has expired, its consent has lapsed, or it was used 4 times today (Stockholm time).');
    }
    if (use.usesToday === REFRESH_USES_PER_DAY) RequestHints.raise('REFRESH_LAST_USE_TODAY');
    return tokenResponse(accessToken, REFRESHED_TOKEN_LIFETIME_S, REFRESHED_SCOPES);
  }

  /** Bank §4.1: no eid at the token step; the scopes are the certificate's roles, the lifetime the TPP's setting. */
  private async nonAuthenticated(userId: string, client: Psd2Client): Promise<TokenResponseDto> {
    let personalNumber: PersonalNumber;
    try {
      personalNumber = this.personalNumbers.read(userId, 'user_id');
    } catch (error) {
      if (error instanceof ValidationFailed) throw invalidRequest(error.message);
      throw error;
    }
    const accessToken = newSecret();
    const scopes = scopesOfRoles(client.roles);
    const grant = { tppId: client.tpp.id, personalNumber, scopes, certificateThumbprint: client.certificateBinding };
    const lifetimeS = await this.tokens.insertNonAuthenticatedToken(hashSecret(accessToken), grant, this.clock.now());
    if (lifetimeS === null) {
      const user = await this.users.find(personalNumber);
      if (!user) throw invalidGrant(`user_id ${personalNumber} is not a sandbox user.`);
      if (!user.kycCompleted) throw refusedWithoutKyc(user);
      throw new Error(`TPP ${client.tpp.id} vanished`);
    }
    return tokenResponse(accessToken, lifetimeS, scopes);
  }

  private async requireKyc(personalNumber: string): Promise<void> {
    const user = await this.users.find(personalNumber as PersonalNumber);
    if (!user) throw invalidGrant(`The user ${personalNumber} no longer exists.`);
    if (!user.kycCompleted) throw refusedWithoutKyc(user);
  }

  private async accessToken(
    grant: { kind: TokenKind; tppId: string; personalNumber: string; scopes: Scope[]; lifetimeS: number; certificateThumbprint: string | null },
    now: Date,
  ): Promise<TokenResponseDto> {
    const accessToken = newSecret();
    const { lifetimeS, ...bound } = grant;
    await this.tokens.insertAccessToken(hashSecret(accessToken), { ...bound, expiresAt: new Date(now.getTime() + seconds(lifetimeS)) }, now);
    return tokenResponse(accessToken, lifetimeS, grant.scopes);
  }
}

/** Contract §5: the token answer. */
function tokenResponse(accessToken: string, lifetimeS: number, scopes: readonly Scope[]): TokenResponseDto {
  return { access_token: accessToken, expires_in: lifetimeS, token_type: 'bearer', scope: scopeText(scopes) };
}
