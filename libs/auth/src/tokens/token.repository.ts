import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { entityRows, returnedRows } from '@app/common';
import { Psd2AccessTokenEntity, Psd2ConsentEntity, Psd2RefreshTokenEntity } from './token.entities';
import { REFRESH_USES_PER_DAY } from './token-kinds';

/** An access token's grant: its row without the hash and issue time. */
export type AccessTokenGrant = Omit<Psd2AccessTokenEntity, 'tokenHash' | 'issuedAt'>;

export interface RefreshUse {
  personalNumber: string;
}

/** Access tokens, refresh tokens and consents, by the SHA-256 of the token values. */
@Injectable()
export class TokenRepository {
  private readonly grants = entityRows(this.dataSource, Psd2AccessTokenEntity, ['tokenHash', 'issuedAt']);

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async insertAccessToken(tokenHash: string, grant: AccessTokenGrant, issuedAt: Date): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO psd2_access_token (token_hash, kind, tpp_id, personal_number, scopes, issued_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [tokenHash, grant.kind, grant.tppId, grant.personalNumber, grant.scopes, issuedAt, grant.expiresAt],
    );
  }

  /** One indexed read per authenticated call (the hot path of every AIS/PIS call). */
  async findAccessToken(tokenHash: string): Promise<AccessTokenGrant | null> {
    return this.grants.first(await this.dataSource.query(`SELECT ${this.grants.select()} FROM psd2_access_token WHERE token_hash = $1`, [tokenHash]));
  }

  async insertConsent(consent: Omit<Psd2ConsentEntity, 'id'>): Promise<string> {
    const result = await this.dataSource.manager.insert(Psd2ConsentEntity, consent);
    return result.identifiers[0].id as string;
  }

  async insertRefreshToken(token: Omit<Psd2RefreshTokenEntity, 'usesDay' | 'usesCount'>): Promise<void> {
    await this.dataSource.manager.insert(Psd2RefreshTokenEntity, { ...token, usesDay: null, usesCount: 0 });
  }

  /** Whose refresh token this is, if it is this TPP's. */
  async findRefreshTokenOwner(tokenHash: string, tppId: string): Promise<string | null> {
    const token = await this.dataSource.manager.findOneBy(Psd2RefreshTokenEntity, { tokenHash, tppId });
    return token?.personalNumber ?? null;
  }

  /**
   * Counts one use of a refresh token, in one statement: only if it is this TPP's, unexpired, its
   * consent has not lapsed and it has been used fewer than 4 times on `today` (Stockholm). Null when
   * any of that fails; concurrent uses can never exceed the limit.
   */
  async useRefreshToken(tokenHash: string, tppId: string, now: Date, today: string): Promise<RefreshUse | null> {
    const rows = returnedRows<{ personal_number: string }>(
      await this.dataSource.query(
        `UPDATE psd2_refresh_token r
            SET uses_count = CASE WHEN r.uses_day = $4::date THEN r.uses_count + 1 ELSE 1 END,
                uses_day = $4::date
          WHERE r.token_hash = $1 AND r.tpp_id = $2 AND r.expires_at > $3
            AND (r.uses_day IS DISTINCT FROM $4::date OR r.uses_count < $5)
            AND EXISTS (SELECT 1 FROM psd2_consent c WHERE c.id = r.consent_id AND c.expires_at > $3)
          RETURNING r.personal_number`,
        [tokenHash, tppId, now, today, REFRESH_USES_PER_DAY],
      ),
    );
    return rows[0] ? { personalNumber: rows[0].personal_number } : null;
  }
}
