import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { DEFAULT_NON_AUTHENTICATED_TOKEN_LIFETIME_S } from './tpp.entity';
import { Tpp } from './tpp';

interface TppRow {
  id: string;
  identifier: string;
  non_authenticated_token_lifetime_s: number;
}

const toTpp = (row: TppRow): Tpp => ({
  id: row.id,
  identifier: row.identifier,
  nonAuthenticatedTokenLifetimeS: row.non_authenticated_token_lifetime_s,
});

@Injectable()
export class TppRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Registers the TPP with default settings unless known; one statement either way. */
  async findOrRegister(identifier: string, manager: EntityManager = this.dataSource.manager): Promise<Tpp> {
    const rows: TppRow[] = await manager.query(
      `INSERT INTO tpp (identifier, non_authenticated_token_lifetime_s) VALUES ($1, $2)
       ON CONFLICT (identifier) DO UPDATE SET identifier = EXCLUDED.identifier
       RETURNING id, identifier, non_authenticated_token_lifetime_s`,
      [identifier, DEFAULT_NON_AUTHENTICATED_TOKEN_LIFETIME_S],
    );
    return toTpp(rows[0]);
  }

  async configure(identifier: string, lifetimeS: number, manager: EntityManager = this.dataSource.manager): Promise<Tpp> {
    const rows: TppRow[] = await manager.query(
      `INSERT INTO tpp (identifier, non_authenticated_token_lifetime_s) VALUES ($1, $2)
       ON CONFLICT (identifier) DO UPDATE SET non_authenticated_token_lifetime_s = EXCLUDED.non_authenticated_token_lifetime_s
       RETURNING id, identifier, non_authenticated_token_lifetime_s`,
      [identifier, lifetimeS],
    );
    return toTpp(rows[0]);
  }
}
