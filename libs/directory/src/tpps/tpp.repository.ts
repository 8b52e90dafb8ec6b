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

  /**
   * The TPP, registered with default settings if new. Known TPPs (every call but the first) cost one
   * indexed read and no write.
   */
  async findOrRegister(identifier: string, manager: EntityManager = this.dataSource.manager): Promise<Tpp> {
    const select = 'SELECT id, identifier, non_authenticated_token_lifetime_s FROM tpp WHERE identifier = $1';
    const known: TppRow[] = await manager.query(select, [identifier]);
    if (known[0]) return toTpp(known[0]);
    const inserted: TppRow[] = await manager.query(
      `INSERT INTO tpp (identifier, non_authenticated_token_lifetime_s) VALUES ($1, $2)
       ON CONFLICT (identifier) DO NOTHING
       RETURNING id, identifier, non_authenticated_token_lifetime_s`,
      [identifier, DEFAULT_NON_AUTHENTICATED_TOKEN_LIFETIME_S],
    );
    // A concurrent first call may have registered it between our read and insert.
    return toTpp(inserted[0] ?? (await manager.query<TppRow[]>(select, [identifier]))[0]);
  }

  async findById(id: string, manager: EntityManager = this.dataSource.manager): Promise<Tpp | null> {
    const rows: TppRow[] = await manager.query('SELECT id, identifier, non_authenticated_token_lifetime_s FROM tpp WHERE id = $1', [id]);
    return rows[0] ? toTpp(rows[0]) : null;
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
