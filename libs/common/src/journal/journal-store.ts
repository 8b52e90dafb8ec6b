import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { returnedRows } from '../database/returned-rows';
import type { NewJournalEntry } from './journal-entry';

/**
 * The journal's statements that span sandboxes, outside SandboxDb's per-sandbox guard (allow-listed
 * in sandbox-isolation.spec.ts): the writer's batches, which mix the entries of every sandbox, and
 * the retention passes over all sandboxes at once. Every statement still names sandbox_id.
 */
@Injectable()
export class JournalStore {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * One INSERT for the whole batch (columns as arrays, so any batch size is 16 parameters). Entries
   * of a sandbox deleted meanwhile are dropped by the join, which also holds the sandbox rows it
   * keeps (FOR KEY SHARE) so a concurrent delete cannot fail the batch. Rows get `seq` in the
   * batch's order (numbered over the sorted rows: an identity default may be drawn in join order).
   */
  async insert(entries: readonly NewJournalEntry[]): Promise<number> {
    const column = <T>(pick: (entry: NewJournalEntry) => T) => entries.map(pick);
    const json = (pick: (entry: NewJournalEntry) => unknown) => entries.map((entry) => JSON.stringify(pick(entry)));
    const rows: unknown = await this.dataSource.query(
      `INSERT INTO journal_entry (seq, sandbox_id, request_id, arrived_at, at, method, path, query, status, duration_ms,
                                  caller_kind, caller_id, reason_code, request, response, hints, hint_codes, replayed)
       OVERRIDING SYSTEM VALUE
       SELECT nextval(pg_get_serial_sequence('journal_entry', 'seq')), kept.*
       FROM (
         SELECT e.sandbox_id, e.request_id, e.arrived_at, e.at, e.method, e.path, e.query, e.status, e.duration_ms,
                e.caller_kind, e.caller_id, e.reason_code, e.request, e.response, e.hints,
                ARRAY(SELECT jsonb_array_elements(e.hints) ->> 'code'), e.replayed
         FROM unnest($1::text[], $2::text[], $3::timestamptz[], $4::timestamptz[], $5::text[], $6::text[], $7::jsonb[], $8::smallint[],
                     $9::integer[], $10::text[], $11::text[], $12::text[], $13::jsonb[], $14::jsonb[], $15::jsonb[], $16::boolean[])
                WITH ORDINALITY AS e(sandbox_id, request_id, arrived_at, at, method, path, query, status, duration_ms,
                                     caller_kind, caller_id, reason_code, request, response, hints, replayed, n)
         JOIN sandbox s ON s.id = e.sandbox_id
         ORDER BY e.n
         FOR KEY SHARE OF s
       ) kept
       RETURNING sandbox_id`,
      [
        column((e) => e.sandboxId),
        column((e) => e.requestId),
        column((e) => e.arrivedAt),
        column((e) => e.at),
        column((e) => e.method),
        column((e) => e.path),
        json((e) => e.query),
        column((e) => e.status),
        column((e) => e.durationMs),
        column((e) => e.caller.kind),
        column((e) => e.caller.id ?? null),
        column((e) => e.reasonCode),
        json((e) => e.request),
        json((e) => e.response),
        json((e) => e.hints),
        column((e) => e.replayed),
      ],
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
