import { createHash } from 'node:crypto';
import { type FieldDef, type Pool, type PoolClient, Query, type QueryResult } from 'pg';
import { DataSource, EntityManager, QueryFailedError } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';

/**
 * Distinct statements prepared at most: the repositories' SQL is fixed text, so the real number is
 * the number of statements in the code base; the bound only keeps a mistake (text built from data)
 * from filling every connection with plans. Past it, statements run unnamed, as TypeORM runs them.
 */
const MAX_PREPARED = 1000;

/**
 * Runs statements as named (prepared) statements on TypeORM's own pg pool, or on the connection of
 * the open transaction: PostgreSQL parses and plans each text once per connection instead of on
 * every call, and no TypeORM query runner is made per statement (issue 19: a hot path's database
 * time was mostly planning, and its process time partly TypeORM's per-query machinery). Answers
 * have TypeORM's shape (`query()`: rows; UPDATE and DELETE [rows, affected]) and failures its
 * QueryFailedError, and TypeORM's logger hears of each, so callers and tests see no difference.
 */
export class PreparedStatements {
  private readonly names = new Map<string, string>();

  constructor(private readonly dataSource: DataSource) {}

  async query<T>(manager: EntityManager | undefined, sql: string, values: unknown[]): Promise<T> {
    const client = manager ? transactionConnection(manager) : undefined;
    const pool = manager ? undefined : this.pool();
    // A manager whose connection is not open yet (or another driver): TypeORM's own path.
    if (!client && !pool) return (manager ?? this.dataSource.manager).query(sql, values);
    // TypeORM's logger hears of every statement and failure, as when TypeORM runs them.
    const { logger } = this.dataSource;
    logger.logQuery(sql, values);
    let raw: QueryResult;
    try {
      const name = this.nameOf(sql);
      raw = await (client ? submit(client, name, sql, values) : submitOnPool(pool as Pool, name, sql, values));
    } catch (error) {
      logger.logQueryError(error as Error, sql, values);
      throw new QueryFailedError(sql, values, error as Error);
    }
    return (raw.command === 'UPDATE' || raw.command === 'DELETE' ? [raw.rows, raw.rowCount] : raw.rows) as T;
  }

  private pool(): Pool | undefined {
    return (this.dataSource.driver as Partial<PostgresDriver>).master as Pool | undefined;
  }

  private nameOf(sql: string): string | undefined {
    let name = this.names.get(sql);
    if (name === undefined && this.names.size < MAX_PREPARED) {
      name = `sdb_${createHash('sha256').update(sql).digest('hex').slice(0, 40)}`;
      this.names.set(sql, name);
    }
    return name;
  }
}

/**
 * On a client of the pool, given back as it is after a failure: the pool's own query() closes a
 * client whose statement failed (the session then loses its prepared statements; the embedded
 * database's socket failed the next connection made meanwhile).
 */
async function submitOnPool(pool: Pool, name: string | undefined, text: string, values: unknown[]): Promise<QueryResult> {
  const client = await pool.connect();
  try {
    return await submit(client, name, text, values);
  } finally {
    client.release();
  }
}

/**
 * One statement as a pg Query made from its text and then named: given a config object, pg copies it
 * property descriptor by descriptor on every call (its cloneQueryConfig, several µs a statement under
 * load, issue 19). With a callback, a pool or a client runs it and calls back with the result.
 */
function submit(connection: PoolClient, name: string | undefined, text: string, values: unknown[]): Promise<QueryResult> {
  const query = new Query(text, values) as Query & { name?: string };
  query.name = name;
  if (name !== undefined) reuseRowDescriptions(query, name);
  const runner = connection as unknown as { query(query: Query, values: undefined, callback: (error: Error | null, result: QueryResult) => void): void };
  return new Promise((resolve, reject) => runner.query(query, undefined, (error, result) => (error ? reject(error) : resolve(result))));
}

function transactionConnection(manager: EntityManager): PoolClient | undefined {
  const runner = manager.queryRunner as { isReleased?: boolean; databaseConnection?: PoolClient } | undefined;
  return runner && !runner.isReleased ? runner.databaseConnection : undefined;
}

/** What pg's Result builds from a RowDescription (pg/lib/result.js, addFields). */
interface RowDescriptionUse {
  fields: FieldDef[];
  _parsers?: unknown[];
  _prebuiltEmptyResultObject?: object;
  addFields: (this: RowDescriptionUse, fields: FieldDef[]) => void;
}

/** The last row description of each named statement, with what pg built from it. */
const rowDescriptions = new Map<string, { fields: FieldDef[]; parsers: unknown[]; emptyRow: object }>();

/**
 * pg asks for the row description of every statement it runs, and builds from it, each time, a
 * parser per column and an empty row object keyed by the column names (fresh strings from the wire,
 * each made a property key: about 12 µs for an entity's 25 columns, issue 19). A named statement's
 * description is the same on every run while the schema is: when the one received matches the last
 * one kept for the name (names, types and formats compared), the kept parsers and empty row serve
 * again. Anything else (another pg whose Result does not look like this) takes pg's own path.
 */
export function reuseRowDescriptions(query: Query, name: string): void {
  const result = (query as unknown as { _result?: RowDescriptionUse })._result;
  if (!result || typeof result.addFields !== 'function') return;
  const build = result.addFields;
  result.addFields = function (this: RowDescriptionUse, fields: FieldDef[]): void {
    const kept = rowDescriptions.get(name);
    if (kept && sameColumns(kept.fields, fields)) {
      this.fields = kept.fields;
      this._parsers = kept.parsers;
      this._prebuiltEmptyResultObject = kept.emptyRow;
      return;
    }
    build.call(this, fields);
    const { _parsers: parsers, _prebuiltEmptyResultObject: emptyRow } = this;
    // As many names as prepared statements: at most MAX_PREPARED.
    if (Array.isArray(parsers) && parsers.length === fields.length && emptyRow) rowDescriptions.set(name, { fields, parsers, emptyRow });
  };
}

function sameColumns(kept: readonly FieldDef[], received: readonly FieldDef[]): boolean {
  if (kept.length !== received.length) return false;
  for (let i = 0; i < kept.length; i++) {
    const a = kept[i];
    const b = received[i];
    if (a.name !== b.name || a.dataTypeID !== b.dataTypeID || a.format !== b.format) return false;
  }
  return true;
}
