import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { returnedRows } from '../database/returned-rows';
import type { JournalRow } from './journal-entry';

/**
 * The journal's statements that span sandboxes, outside SandboxDb's per-sandbox guard (allow-listed
 * in sandbox-isolation.spec.ts): the writer's batches, which mix the entries of every sandbox, and
 * the retention passes over all sandboxes at once. Every statement still names sandbox_id.
 */
@Injectable()
export class JournalStore {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * One INSERT for the whole batch, sent as one JSON array of the rows (one parameter whatever the
   * batch size; the JSON columns nested as JSON, not escaped again inside text arrays). Entries of a
   * sandbox deleted meanwhile are dropped by the join, which also holds the sandbox rows it keeps
   * (FOR KEY SHARE) so a concurrent delete cannot fail the batch. Rows get `seq` in the batch's
   * order (numbered over the sorted rows: an identity default may be drawn in join order).
   */
  async insert(entries: readonly JournalRow[]): Promise<number> {
    const rows: unknown = await this.dataSource.query(
      `INSERT INTO journal_entry (seq, sandbox_id, request_id, arrived_at, at, method, path, query, status, duration_ms,
                                  caller_kind, caller_id, reason_code, request, response, hints, hint_codes, replayed)
       OVERRIDING SYSTEM VALUE
       SELECT nextval(pg_get_serial_sequence('journal_entry', 'seq')), kept.*
       FROM (
         SELECT e.sandbox_id, e.request_id, e.arrived_at, e.at, e.method, e.path, e.query, e.status, e.duration_ms,
                e.caller_kind, e.caller_id, e.reason_code, e.request, e.response, e.hints, e.hint_codes, e.replayed
         FROM ROWS FROM (json_to_recordset($1::json) AS (
                sandbox_id text, request_id text, arrived_at timestamptz, at timestamptz, method text, path text, query jsonb,
                status smallint, duration_ms integer, caller_kind text, caller_id text, reason_code text, request jsonb,
                response jsonb, hints jsonb, hint_codes text[], replayed boolean))
              WITH ORDINALITY AS e(sandbox_id, request_id, arrived_at, at, method, path, query, status, duration_ms,
                                   caller_kind, caller_id, reason_code, request, response, hints, hint_codes, replayed, n)
         JOIN sandbox s ON s.id = e.sandbox_id
         ORDER BY e.n
         FOR KEY SHARE OF s
       ) kept
       RETURNING sandbox_id`,
      [`[${entries.map((entry) => entry.json).join(',')}]`],
    );
    return returnedRows(rows).length;
  }

  /**
   * Deletes up to `batch` entries beyond the newest `keep` of each sandbox (all sandboxes in one
   * statement, each read newest first on the primary key); the count deleted.
   */
  async pruneBeyond(keep: number, batch: number): Promise<number> {
    const rows: unknown = await this.dataSource.query(
      `DELETE FROM journal_entry j
       USING (
         SELECT old.sandbox_id, old.seq
         FROM sandbox s
         CROSS JOIN LATERAL (SELECT k.seq FROM journal_entry k WHERE k.sandbox_id = s.id ORDER BY k.seq DESC OFFSET $1 LIMIT 1) cut
         CROSS JOIN LATERAL (SELECT o.sandbox_id, o.seq FROM journal_entry o WHERE o.sandbox_id = s.id AND o.seq <= cut.seq ORDER BY o.seq LIMIT $2) old
         LIMIT $2
       ) doomed
       WHERE j.sandbox_id = doomed.sandbox_id AND j.seq = doomed.seq
       RETURNING j.sandbox_id`,
      [keep, batch],
    );
    return returnedRows(rows).length;
  }

  /** Deletes up to `batch` entries that arrived more than `days` real days ago, oldest first; the count deleted. */
  async pruneOlderThan(days: number, batch: number): Promise<number> {
    const rows: unknown = await this.dataSource.query(
      `DELETE FROM journal_entry j
       USING (SELECT sandbox_id, seq FROM journal_entry WHERE arrived_at < now() - make_interval(days => $1) ORDER BY arrived_at LIMIT $2) doomed
       WHERE j.sandbox_id = doomed.sandbox_id AND j.seq = doomed.seq
       RETURNING j.sandbox_id`,
      [days, batch],
    );
    return returnedRows(rows).length;
  }
}
