import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { entityRows } from '@app/common';
import { PartnerEntity } from './partner.entity';
import { Partner } from './partner';

@Injectable()
export class PartnerRepository {
  /** A Partner: never the key's hash. */
  private readonly rows = entityRows(this.partners.manager.dataSource, PartnerEntity, ['apiKeyHash', 'createdAt']);

  constructor(@InjectRepository(PartnerEntity) private readonly partners: Repository<PartnerEntity>) {}

  /** Inserts unless the key hash is taken; null when it is. */
  async insert(name: string, apiKeyHash: string, manager: EntityManager = this.partners.manager): Promise<Partner | null> {
    const result: unknown = await manager.query(
      `INSERT INTO partner (name, api_key_hash) VALUES ($1, $2)
       ON CONFLICT (api_key_hash) DO NOTHING
       RETURNING ${this.rows.select()}`,
      [name, apiKeyHash],
    );
    return this.rows.first(result);
  }

  /** One indexed lookup by the key's hash. */
  async findByKeyHash(apiKeyHash: string, manager: EntityManager = this.partners.manager): Promise<Partner | null> {
    return this.rows.first(await manager.query(`SELECT ${this.rows.select()} FROM partner WHERE api_key_hash = $1`, [apiKeyHash]));
  }
}
