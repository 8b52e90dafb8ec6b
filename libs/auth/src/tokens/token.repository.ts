import { Injectable } from '@nestjs/common';
import { returnedRows, SandboxCache, SandboxClock, SandboxDb } from '@app/common';
import { kycAnswered, nonAuthenticatedTokenLifetime } from '@app/directory';
import { Psd2AccessTokenEntity, Psd2ConsentEntity, Psd2RefreshTokenEntity } from './token.entities';
import { REFRESHED_SCOPES, REFRESH_USES_PER_DAY } from './token-kinds';

/** An access token's grant: its row without the hash and issue time. */
export type AccessTokenGrant = Omit<Psd2AccessTokenEntity, 'tokenHash' | 'issuedAt'>;
/** A grant as read back: with its issue time (a refused expired token's hint says how long it lived). */
export type IssuedAccessToken = AccessTokenGrant & Pick<Psd2AccessTokenEntity, 'issuedAt'>;

/** What a non-authenticated token is bound to; its lifetime is the TPP's setting. */
export type NonAuthenticatedGrant = Pick<Psd2AccessTokenEntity, 'tppId' | 'personalNumber' | 'scopes' | 'certificateThumbprint'>;

/** The access token a refresh token's use buys: AIS only, of REFRESHED_TOKEN_LIFETIME_S (contract §5). */
export interface RefreshedAccessToken {
  tokenHash: string;
  expiresAt: Date;
}

/** A refresh token as its owner TPP holds it: for the reason of a refused use. */
export interface RefreshTokenHolding {
  personalNumber: string;
  /** The certificate it is bound to (contract §16); null: a token of the plain port. */
  certificateThumbprint: string | null;
}

export interface RefreshUse {
  personalNumber: string;
  /** This use's number on its Stockholm day (1–4). */
  usesToday: number;
}

/** Access tokens, refresh tokens and consents, by the SHA-256 of the token values. */
@Injectable()
export class TokenRepository {
  private readonly grants = this.db.rows(Psd2AccessTokenEntity, ['tokenHash']);
  /**
   * Access tokens as read, per sandbox and generation. A token's row never changes: it is only ever
   * inserted, and goes only with a reset or delete of its sandbox or with its user seeded again
   * (contract §8), each a new generation, which this instance learns within the clock's one-second
   * window. Unknown tokens are not kept: another
   * instance may issue one at any moment.
   */
  private readonly issued: SandboxCache<IssuedAccessToken>;

  constructor(
    private readonly db: SandboxDb,
    clock: SandboxClock,
  ) {
    this.issued = new SandboxCache(clock);
  }

  async insertAccessToken(tokenHash: string, grant: AccessTokenGrant, issuedAt: Date): Promise<void> {
    await this.db.query(
      `INSERT INTO psd2_access_token (sandbox_id, token_hash, kind, tpp_id, personal_number, scopes, issued_at, expires_at, certificate_thumbprint)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [tokenHash, grant.kind, grant.tppId, grant.personalNumber, grant.scopes, issuedAt, grant.expiresAt, grant.certificateThumbprint],
    );
  }

  /**
   * A non-authenticated token (bank §4.1) that lives the TPP's configured lifetime (contract §8),
   * issued in one statement only if its user has answered KYC (bank §4.2 rule 1). Answers the
   * lifetime in seconds, or null when refused (nothing issued).
   */
  async insertNonAuthenticatedToken(tokenHash: string, grant: NonAuthenticatedGrant, issuedAt: Date): Promise<number | null> {
    const rows: Array<{ lifetime_s: number }> = await this.db.query(
      `INSERT INTO psd2_access_token (sandbox_id, token_hash, kind, tpp_id, personal_number, scopes, issued_at, expires_at, certificate_thumbprint)
       SELECT $1, $2, 'non_authenticated', $3, $4, $5, $6, $6::timestamptz + make_interval(secs => tpp.lifetime_s), $7
         FROM (SELECT ${nonAuthenticatedTokenLifetime('$3')} AS lifetime_s) tpp
        WHERE tpp.lifetime_s IS NOT NULL AND ${kycAnswered('$4')}
       RETURNING extract(epoch FROM expires_at - issued_at)::integer AS lifetime_s`,
      [tokenHash, grant.tppId, grant.personalNumber, grant.scopes, issuedAt, grant.certificateThumbprint],
    );
    return rows[0] ? Number(rows[0].lifetime_s) : null;
  }

  /**
   * The hot path of every AIS/PIS call: one indexed read the first time this instance sees a token,
   * none after (its expiry is still checked against the sandbox clock on every call).
   */
  async findAccessToken(tokenHash: string): Promise<IssuedAccessToken | null> {
    const cached = this.issued.lookup(tokenHash);
    if (cached) return cached;
    const found = this.grants.first(await this.db.query(`SELECT ${this.grants.select()} FROM psd2_access_token WHERE sandbox_id = $1 AND token_hash = $2`, [tokenHash]));
    if (found) this.issued.remember(tokenHash, found);
    return found;
  }

  async insertConsent(consent: Omit<Psd2ConsentEntity, 'id'>): Promise<string> {
    const result = await this.db.insert(Psd2ConsentEntity, consent);
    return result.identifiers[0].id as string;
  }

  async insertRefreshToken(token: Omit<Psd2RefreshTokenEntity, 'usesDay' | 'usesCount'>): Promise<void> {
    await this.db.insert(Psd2RefreshTokenEntity, { ...token, usesDay: null, usesCount: 0 });
  }

  /** Whose refresh token this is and what it is bound to, if it is this TPP's. */
  async findRefreshToken(tokenHash: string, tppId: string): Promise<RefreshTokenHolding | null> {
    const rows: Array<{ personal_number: string; certificate_thumbprint: string | null }> = await this.db.query(
      `SELECT personal_number, certificate_thumbprint FROM psd2_refresh_token WHERE sandbox_id = $1 AND token_hash = $2 AND tpp_id = $3`,
      [tokenHash, tppId],
    );
    return rows[0] ? { personalNumber: rows[0].personal_number, certificateThumbprint: rows[0].certificate_thumbprint } : null;
  }

  /**
   * Counts one use of a refresh token and issues the access token it buys, in one statement: only
   * if the refresh token is this TPP's, presented with the certificate it is bound to (none on the
   * plain port, contract §16), unexpired, its consent has not lapsed, its user has answered KYC and
   * it has been used fewer than 4 times on `today` (Stockholm). The access token is bound as the
   * refresh token is. Null when any of that fails, and then nothing is counted or issued; concurrent
   * uses can never exceed the limit.
   */
  async useRefreshToken(
    refresh: { tokenHash: string; tppId: string; certificateThumbprint: string | null },
    now: Date,
    today: string,
    access: RefreshedAccessToken,
  ): Promise<RefreshUse | null> {
    const rows = returnedRows<{ personal_number: string; uses_count: number }>(
      await this.db.query(
        `WITH used AS (
           UPDATE psd2_refresh_token r
              SET uses_count = CASE WHEN r.uses_day = $5::date THEN r.uses_count + 1 ELSE 1 END,
                  uses_day = $5::date
            WHERE r.sandbox_id = $1 AND r.token_hash = $2 AND r.tpp_id = $3 AND r.expires_at > $4
              AND r.certificate_thumbprint IS NOT DISTINCT FROM $10::char(64)
              AND (r.uses_day IS DISTINCT FROM $5::date OR r.uses_count < $6)
              AND EXISTS (SELECT 1 FROM psd2_consent c WHERE c.sandbox_id = $1 AND c.id = r.consent_id AND c.expires_at > $4)
              AND ${kycAnswered('r.personal_number')}
            RETURNING r.personal_number, r.uses_count
         ), issued AS (
           INSERT INTO psd2_access_token (sandbox_id, token_hash, kind, tpp_id, personal_number, scopes, issued_at, expires_at, certificate_thumbprint)
           SELECT $1, $7, 'authorize', $3, used.personal_number, $8, $4, $9, $10 FROM used
         )
         SELECT personal_number, uses_count FROM used`,
        [refresh.tokenHash, refresh.tppId, now, today, REFRESH_USES_PER_DAY, access.tokenHash, REFRESHED_SCOPES, access.expiresAt, refresh.certificateThumbprint],
      ),
    );
    return rows[0] ? { personalNumber: rows[0].personal_number, usesToday: Number(rows[0].uses_count) } : null;
  }

  /**
   * Deletes every refresh token, consent and access token of the person, of every TPP, in the
   * order their foreign keys need. A token cached on an instance stays readable there until the
   * sandbox's next generation (ConsentService.forgetUser's caller moves it).
   */
  async deleteOf(personalNumber: string): Promise<void> {
    await this.db.query(`DELETE FROM psd2_refresh_token WHERE sandbox_id = $1 AND personal_number = $2`, [personalNumber]);
    await this.db.query(`DELETE FROM psd2_consent WHERE sandbox_id = $1 AND personal_number = $2`, [personalNumber]);
    await this.db.query(`DELETE FROM psd2_access_token WHERE sandbox_id = $1 AND personal_number = $2`, [personalNumber]);
  }

  /** Whether this TPP's refresh token was refused for its uses today (read on a refusal only, for its hint). */
  async refreshLimitReached(tokenHash: string, tppId: string, today: string): Promise<boolean> {
    const rows = returnedRows(
      await this.db.query(
        `SELECT 1 FROM psd2_refresh_token WHERE sandbox_id = $1 AND token_hash = $2 AND tpp_id = $3 AND uses_day = $4::date AND uses_count >= $5`,
        [tokenHash, tppId, today, REFRESH_USES_PER_DAY],
      ),
    );
    return rows.length === 1;
  }
}
