import { Injectable } from '@nestjs/common';
import { SandboxDb } from '@app/common';
import { DEFAULT_NON_AUTHENTICATED_TOKEN_LIFETIME_S, TppEntity } from './tpp.entity';
import { Tpp } from './tpp';

/**
 * For another lib's statement that reads a TPP's setting in the same step: the non-authenticated
 * token lifetime in seconds (contract §8) of the TPP whose id is `tppId` (an SQL expression), in
 * the statement's sandbox (`$1`); NULL when there is no such TPP.
 */
export const nonAuthenticatedTokenLifetime = (tppId: string): string =>
  `(SELECT t.non_authenticated_token_lifetime_s FROM tpp t WHERE t.sandbox_id = $1 AND t.id = ${tppId})`;

@Injectable()
export class TppRepository {
  private readonly rows = this.db.rows(TppEntity, ['createdAt']);

  constructor(private readonly db: SandboxDb) {}

  /**
   * The TPP, registered with default settings if new. Known TPPs (every call but the first) cost one
   * indexed read and no write.
   */
  async findOrRegister(identifier: string): Promise<Tpp> {
    const select = `SELECT ${this.rows.select()} FROM tpp WHERE sandbox_id = $1 AND identifier = $2`;
    const known = this.rows.first(await this.db.query(select, [identifier]));
    if (known) return known;
    const inserted = this.rows.first(
      await this.db.query(
        `INSERT INTO tpp (sandbox_id, identifier, non_authenticated_token_lifetime_s) VALUES ($1, $2, $3)
         ON CONFLICT (sandbox_id, identifier) DO NOTHING
         RETURNING ${this.rows.select()}`,
        [identifier, DEFAULT_NON_AUTHENTICATED_TOKEN_LIFETIME_S],
      ),
    );
    // A concurrent first call may have registered it between our read and insert.
    return inserted ?? (this.rows.first(await this.db.query(select, [identifier])) as Tpp);
  }

  async configure(identifier: string, lifetimeS: number): Promise<Tpp> {
    const result: unknown = await this.db.query(
      `INSERT INTO tpp (sandbox_id, identifier, non_authenticated_token_lifetime_s) VALUES ($1, $2, $3)
       ON CONFLICT (sandbox_id, identifier) DO UPDATE SET non_authenticated_token_lifetime_s = EXCLUDED.non_authenticated_token_lifetime_s
       RETURNING ${this.rows.select()}`,
      [identifier, lifetimeS],
    );
    return this.rows.first(result) as Tpp;
  }
}
