import { Injectable } from '@nestjs/common';
import { returnedRows, SandboxDb } from '@app/common';
import { EnterpriseAuthorizationEntity, EnterpriseTokenEntity } from './enterprise.entities';

/** A token's grant: its row without the hash and issue time. */
export type EnterpriseToken = Omit<EnterpriseTokenEntity, 'tokenHash' | 'issuedAt'>;
/** A grant as read back: with its issue time (a refused expired token's hint says how long it lived). */
export type IssuedEnterpriseToken = EnterpriseToken & Pick<EnterpriseTokenEntity, 'issuedAt'>;

/** What exchanging a pending code needs of its authorization. */
export type EnterpriseAuthorization = Omit<EnterpriseAuthorizationEntity, 'clientId' | 'autostartTokenHash'>;

/** Enterprise tokens and pending authorizations (bank §4.6); codes and tokens as their SHA-256 only. */
@Injectable()
export class EnterpriseTokenRepository {
  private readonly tokens = this.db.rows(EnterpriseTokenEntity, ['tokenHash']);
  private readonly authorizations = this.db.rows(EnterpriseAuthorizationEntity, ['clientId', 'autostartTokenHash']);

  constructor(private readonly db: SandboxDb) {}

  async insertToken(tokenHash: string, token: EnterpriseToken, issuedAt: Date): Promise<void> {
    await this.db.query(
      `INSERT INTO enterprise_token (sandbox_id, token_hash, kind, partner_id, personal_number, scopes, issued_at, expires_at, certificate_thumbprint)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [tokenHash, token.kind, token.partnerId, token.personalNumber, token.scopes, issuedAt, token.expiresAt, token.certificateThumbprint],
    );
  }

  /** One indexed read per call made with an enterprise token. */
  async findToken(tokenHash: string): Promise<IssuedEnterpriseToken | null> {
    return this.tokens.first(await this.db.query(`SELECT ${this.tokens.select()} FROM enterprise_token WHERE sandbox_id = $1 AND token_hash = $2`, [tokenHash]));
  }

  async insertAuthorization(authorization: EnterpriseAuthorizationEntity): Promise<void> {
    await this.db.query(
      `INSERT INTO enterprise_authorization (sandbox_id, pending_code_hash, partner_id, client_id, personal_number, scopes, autostart_token_hash, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [
        authorization.pendingCodeHash,
        authorization.partnerId,
        authorization.clientId,
        authorization.personalNumber,
        authorization.scopes,
        authorization.autostartTokenHash,
        authorization.createdAt,
      ],
    );
  }

  async findAuthorization(pendingCodeHash: string, partnerId: string): Promise<EnterpriseAuthorization | null> {
    return this.authorizations.first(
      await this.db.query(`SELECT ${this.authorizations.select()} FROM enterprise_authorization WHERE sandbox_id = $1 AND pending_code_hash = $2 AND partner_id = $3`, [
        pendingCodeHash,
        partnerId,
      ]),
    );
  }

  /** Deletes the person's end-user tokens and pending authorizations, of every partner (client-credentials tokens name no person). */
  async deleteOfEndUser(personalNumber: string): Promise<void> {
    await this.db.query(`DELETE FROM enterprise_token WHERE sandbox_id = $1 AND personal_number = $2`, [personalNumber]);
    await this.db.query(`DELETE FROM enterprise_authorization WHERE sandbox_id = $1 AND personal_number = $2`, [personalNumber]);
  }

  /** Single use, atomically: false when it was exchanged already. */
  async claimExchange(pendingCodeHash: string, now: Date): Promise<boolean> {
    return (
      returnedRows(
        await this.db.query(
          `UPDATE enterprise_authorization SET exchanged_at = $3 WHERE sandbox_id = $1 AND pending_code_hash = $2 AND exchanged_at IS NULL RETURNING 1`,
          [pendingCodeHash, now],
        ),
      ).length === 1
    );
  }
}
