import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { PartnerEntity } from './partner.entity';
import { Partner } from './partner';

@Injectable()
export class PartnerRepository {
  constructor(@InjectRepository(PartnerEntity) private readonly partners: Repository<PartnerEntity>) {}

  /** Inserts unless the key hash is taken; null when it is. */
  async insert(name: string, apiKeyHash: string, manager: EntityManager = this.partners.manager): Promise<Partner | null> {
    const rows: Array<{ id: string; name: string }> = await manager.query(
      `INSERT INTO partner (name, api_key_hash) VALUES ($1, $2)
       ON CONFLICT (api_key_hash) DO NOTHING
       RETURNING id, name`,
      [name, apiKeyHash],
    );
    return rows[0] ?? null;
  }

  /** One indexed lookup by the key's hash. */
  async findByKeyHash(apiKeyHash: string, manager: EntityManager = this.partners.manager): Promise<Partner | null> {
    const rows: Partner[] = await manager.query('SELECT id, name FROM partner WHERE api_key_hash = $1', [apiKeyHash]);
    return rows[0] ?? null;
  }
}
