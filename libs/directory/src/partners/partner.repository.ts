import { Injectable } from '@nestjs/common';
import { SandboxDb } from '@app/common';
import { PartnerEntity } from './partner.entity';
import { Partner } from './partner';

@Injectable()
export class PartnerRepository {
  /** A Partner: never the key's hash. */
  private readonly rows = this.db.rows(PartnerEntity, ['apiKeyHash', 'createdAt']);

  constructor(private readonly db: SandboxDb) {}

  /** Inserts unless the key hash is taken; null when it is. */
  async insert(name: string, apiKeyHash: string): Promise<Partner | null> {
    const result: unknown = await this.db.query(
      `INSERT INTO partner (sandbox_id, name, api_key_hash) VALUES ($1, $2, $3)
       ON CONFLICT (sandbox_id, api_key_hash) DO NOTHING
       RETURNING ${this.rows.select()}`,
      [name, apiKeyHash],
    );
    return this.rows.first(result);
  }

  /** One indexed lookup by the key's hash. */
  async findByKeyHash(apiKeyHash: string): Promise<Partner | null> {
    return this.rows.first(await this.db.query(`SELECT ${this.rows.select()} FROM partner WHERE sandbox_id = $1 AND api_key_hash = $2`, [apiKeyHash]));
  }
}
