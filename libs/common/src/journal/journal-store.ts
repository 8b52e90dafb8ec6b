import { Injectable } from '@nestjs/common';
import type { Pool } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { DataSource, QueryFailedError } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { SandboxConfig } from '../config/sandbox-config';
import { returnedRows } from '../database/returned-rows';
import type { JournalBatch } from './journal-batch';
import { JOURNAL_ROW_COLUMNS } from './journal-entry';

const COLUMN_LIST = JOURNAL_ROW_COLUMNS.join(', ');
/** The columns' types, for the INSERT's casts from text. */
const COLUMN_TYPES: Record<(typeof JOURNAL_ROW_COLUMNS)[number], string> = {
  sandbox_id: 'text',
  request_id: 'text',
  arrived_at: 'timestamptz',
  at: 'timestamptz',
  method: 'text',
  path: 'text',
  status: 'smallint',
  duration_ms: 'integer',
  caller_kind: 'text',
  caller_id: 'text',
  reason_code: 'text',
  query: 'json',
  request: 'json',
  response: 'json',
  hints: 'json',
  hint_codes: 'text[]',
  replayed: 'boolean',
};
const COPY_ROWS = `COPY journal_entry (${COLUMN_LIST}) FROM STDIN`;

/**
 * The journal's statements that span sandboxes, outside SandboxDb's per-sandbox guard (allow-listed
 * in sandbox-isolation.spec.ts): the writer's batches, which mix the entries of every sandbox, and
 * the retention passes over all sandboxes at once. Every statement still names sandbox_id.
 */
@Injectable()
export class JournalStore {
  constructor(
    private readonly dataSource: DataSource,
    private readonly config: SandboxConfig,
  ) {}

  /**
   * Writes a batch in arrival order (the BRIN index on arrival stays narrow); the count written. Entries of a sandbox
   * deleted since their request go with it in the same statement (the journal's insert trigger,
   * migration JournalRowsCheckedPerBatch), whichever way the batch is written. On a PostgreSQL
   * server one COPY: the cheapest way into a table, a third of the database time of the INSERT
   * below (issue 16: the journal must not slow the hot paths). The embedded database's socket does
   * not speak COPY's sub-protocol: it takes the INSERT.
   */
  async insert(batch: JournalBatch): Promise<number> {
    if (batch.size === 0) return 0;
    const pool = this.config.databaseUrl ? (this.dataSource.driver as Partial<PostgresDriver>).master as Pool | undefined : undefined;
    return pool ? this.copy(pool, batch) : this.insertRows(batch);
  }

  private async copy(pool: Pool, batch: JournalBatch): Promise<number> {
    const { logger } = this.dataSource;
    logger.logQuery(COPY_ROWS);
    const client = await pool.connect();
    let failure: unknown;
    try {
      const stream = client.query(copyFrom(COPY_ROWS));
      await new Promise<void>((resolve, reject) => {
        stream.once('finish', resolve).once('error', reject);
        stream.end(batch.copyText());
      });
      return stream.rowCount;
    } catch (error) {
      failure = error;
      logger.logQueryError(error as Error, COPY_ROWS);
      throw new QueryFailedError(COPY_ROWS, [], error as Error);
    } finally {
      // A connection whose COPY failed is closed, not handed back mid-protocol.
      client.release(failure as Error | undefined);
    }
  }

  /**
   * One INSERT for the whole batch, sent as one text array per column (as many parameters whatever
   * the batch size). The JSON columns are cast from their text: PostgreSQL's JSON functions would
   * refuse an escaped NUL (`\u0000`) that a client sent, and fail the batch. Rows go in the batch's
   * order, as COPY writes them.
   */
  private async insertRows(batch: JournalBatch): Promise<number> {
    await this.dataSource.query(
      `INSERT INTO journal_entry (${COLUMN_LIST})
       SELECT ${JOURNAL_ROW_COLUMNS.map((column) => `e.${column}::${COLUMN_TYPES[column]}`).join(', ')}
       FROM unnest(${JOURNAL_ROW_COLUMNS.map((_, index) => `$${index + 1}::text[]`).join(', ')}) WITH ORDINALITY AS e(${COLUMN_LIST}, n)
       ORDER BY e.n`,
      batch.columns(),
    );
    return batch.size;
  }

  /**
   * Deletes up to `batch` entries beyond the newest `keep` of each sandbox by arrival (all sandboxes
   * in one statement, each read newest first on the primary key); the count deleted.
   */
  async pruneBeyond(keep: number, batch: number): Promise<number> {
    const rows: unknown = await this.dataSource.query(
      `DELETE FROM journal_entry j
       USING (
         SELECT old.sandbox_id, old.arrived_at, old.tiebreak
         FROM sandbox s
         CROSS JOIN LATERAL (
           SELECT k.arrived_at, k.tiebreak FROM journal_entry k WHERE k.sandbox_id = s.id ORDER BY k.arrived_at DESC, k.tiebreak DESC OFFSET $1 LIMIT 1
         ) cut
         CROSS JOIN LATERAL (
           SELECT o.sandbox_id, o.arrived_at, o.tiebreak FROM journal_entry o
           WHERE o.sandbox_id = s.id AND (o.arrived_at, o.tiebreak) <= (cut.arrived_at, cut.tiebreak)
           ORDER BY o.arrived_at, o.tiebreak LIMIT $2
         ) old
         LIMIT $2
       ) doomed
       WHERE j.sandbox_id = doomed.sandbox_id AND j.arrived_at = doomed.arrived_at AND j.tiebreak = doomed.tiebreak
       RETURNING j.sandbox_id`,
      [keep, batch],
    );
    return returnedRows(rows).length;
  }

  /**
   * Deletes up to `batch` entries that arrived `days` real days ago or earlier (an entry is kept
   * over [arrived_at, arrived_at + days): gone at exactly `days`, contract §6, §14); the count
   * deleted. `asOf` is the instant ages are measured at: the database's now() unless given. The
   * job calls it until less than a batch goes, so every such entry goes in one pass; the arrival
   * times are read through a BRIN index, which finds them but does not order them.
   */
  async pruneOlderThan(days: number, batch: number, asOf?: Date): Promise<number> {
    const rows: unknown = await this.dataSource.query(
      `DELETE FROM journal_entry j
       USING (SELECT sandbox_id, arrived_at, tiebreak FROM journal_entry WHERE arrived_at <= COALESCE($3::timestamptz, now()) - make_interval(days => $1) LIMIT $2) doomed
       WHERE j.sandbox_id = doomed.sandbox_id AND j.arrived_at = doomed.arrived_at AND j.tiebreak = doomed.tiebreak
       RETURNING j.sandbox_id`,
      [days, batch, asOf ?? null],
    );
    return returnedRows(rows).length;
  }
}
