import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { entityRows } from '@app/common';
import { DEFAULT_NON_AUTHENTICATED_TOKEN_LIFETIME_S, TppEntity } from './tpp.entity';
import { Tpp } from './tpp';

@Injectable()
export class TppRepository {
  private readonly rows = entityRows(this.dataSource, TppEntity, ['createdAt']);

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * The TPP, registered with default settings if new. Known TPPs (every call but the first) cost one
   * indexed read and no write.
   */
  async findOrRegister(identifier: string, manager: EntityManager = this.dataSource.manager): Promise<Tpp> {
    const select = `SELECT ${this.rows.select()} FROM tpp WHERE identifier = $1`;
    const known = this.rows.first(await manager.query(select, [identifier]));
    if (known) return known;
    const inserted = this.rows.first(
      await manager.query(
        `INSERT INTO tpp (identifier, non_authenticated_token_lifetime_s) VALUES ($1, $2)
         ON CONFLICT (identifier) DO NOTHING
         RETURNING ${this.rows.select()}`,
        [identifier, DEFAULT_NON_AUTHENTICATED_TOKEN_LIFETIME_S],
      ),
    );
    // A concurrent first call may have registered it between our read and insert.
    return inserted ?? (this.rows.first(await manager.query(select, [identifier])) as Tpp);
  }

  async findById(id: string, manager: EntityManager = this.dataSource.manager): Promise<Tpp | null> {
    return this.rows.first(await manager.query(`SELECT ${this.rows.select()} FROM tpp WHERE id = $1`, [id]));
  }

  async configure(identifier: string, lifetimeS: number, manager: EntityManager = this.dataSource.manager): Promise<Tpp> {
    const result: unknown = await manager.query(
      `INSERT INTO tpp (identifier, non_authenticated_token_lifetime_s) VALUES ($1, $2)
       ON CONFLICT (identifier) DO UPDATE SET non_authenticated_token_lifetime_s = EXCLUDED.non_authenticated_token_lifetime_s
       RETURNING ${this.rows.select()}`,
      [identifier, lifetimeS],
    );
    return this.rows.first(result) as Tpp;
  }
}
