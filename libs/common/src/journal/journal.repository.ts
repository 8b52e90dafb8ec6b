import { Injectable } from '@nestjs/common';
import { SandboxDb } from '../sandbox/sandbox-db';
import type { Hint } from './hint-catalogue';
import { encodeJournalCursor, type JournalPosition, positionArrival } from './journal-cursor';
import type { CallerKind, JournalCaller, NewJournalEntry } from './journal-entry';

/** The filters of contract §14, already validated. */
export interface JournalFilter {
  callerKind?: CallerKind;
  callerId?: string;
  status?: number;
  pathPrefix?: string;
  hint?: string;
  /** Real arrival time, inclusive. */
  since?: Date;
  /** Real arrival time, exclusive. */
  until?: Date;
  limit: number;
  /** The position the previous page's `next_after` names: entries that arrived before it. */
  after?: JournalPosition;
}

/** A stored entry as the journal's readers show it: as written, its sandbox implied. */
export interface JournalEntry extends Omit<NewJournalEntry, 'sandboxId' | 'arrivalMicros' | 'request' | 'response'> {
  /** Real time of arrival (to the millisecond). */
  arrivedAt: Date;
  request: Record<string, unknown>;
  response: Record<string, unknown>;
}

export interface JournalPage {
  entries: JournalEntry[];
  /** The cursor of the next page (opaque: the last entry's own position); absent on the last. */
  nextAfter?: string;
}

interface Row {
  /** The arrival in microseconds and the entry's tiebreak, as text (bigints): its position, for the cursor. */
  arrival_micros: string;
  tiebreak: string;
  request_id: string;
  arrived_at: Date;
  at: Date;
  method: string;
  path: string;
  query: Record<string, unknown>;
  status: number;
  duration_ms: number;
  caller_kind: CallerKind;
  caller_id: string | null;
  reason_code: string | null;
  request: Record<string, unknown>;
  response: Record<string, unknown>;
  hints: Hint[];
  replayed: boolean;
}

/** The position as text (bigints may exceed a JS number; arrived_at as a Date keeps milliseconds only). */
const COLUMNS = `(extract(epoch FROM arrived_at) * 1000000)::bigint::text AS arrival_micros, tiebreak::text AS tiebreak,
  request_id, arrived_at, at, method, path, query, status, duration_ms, caller_kind, caller_id, reason_code, request, response, hints, replayed`;
/** Newest first: real arrival, then the entry's own tiebreak (two entries in one microsecond on two instances). */
const NEWEST_FIRST = `ORDER BY journal_entry.arrived_at DESC, journal_entry.tiebreak DESC`;

/**
 * Reads the context sandbox's journal (contract §14), newest first in arrival order. `own` limits
 * every read to one caller's entries (the self-service route): another caller's are not there.
 * Index-backed, each index ending in (arrived_at, tiebreak): the primary key (sandbox_id, …),
 * (sandbox_id, caller_kind, caller_id, …), (sandbox_id, request_id, …).
 */
@Injectable()
export class JournalRepository {
  constructor(private readonly db: SandboxDb) {}

  async page(filter: JournalFilter, own?: JournalCaller): Promise<JournalPage> {
    const conditions: string[] = [];
    const parameters: unknown[] = [];
    const where = (sql: (placeholder: string) => string, value: unknown) => {
      parameters.push(value);
      conditions.push(sql(`$${parameters.length + 1}`));
    };
    if (own) this.ownBy(own, where);
    if (filter.callerKind !== undefined) where((p) => `caller_kind = ${p}`, filter.callerKind);
    if (filter.callerId !== undefined) where((p) => `caller_id = ${p}`, filter.callerId);
    if (filter.status !== undefined) where((p) => `status = ${p}`, filter.status);
    if (filter.pathPrefix !== undefined) where((p) => `starts_with(path, ${p})`, filter.pathPrefix);
    if (filter.hint !== undefined) where((p) => `${p} = ANY (hint_codes)`, filter.hint);
    if (filter.since !== undefined) where((p) => `arrived_at >= ${p}`, filter.since);
    if (filter.until !== undefined) where((p) => `arrived_at < ${p}`, filter.until);
    if (filter.after !== undefined) {
      const { tiebreak } = filter.after;
      where((p) => `(arrived_at, tiebreak) < (${p}::timestamptz, $${parameters.length + 2}::bigint)`, positionArrival(filter.after));
      parameters.push(tiebreak.toString());
    }
    parameters.push(filter.limit + 1);
    const rows = await this.db.query<Row[]>(
      `SELECT ${COLUMNS} FROM journal_entry WHERE sandbox_id = $1${andAll(conditions)} ${NEWEST_FIRST} LIMIT $${parameters.length + 1}`,
      parameters,
    );
    const page = rows.slice(0, filter.limit);
    const last = page[page.length - 1];
    const entries = page.map(toEntry);
    return rows.length > filter.limit ? { entries, nextAfter: encodeJournalCursor({ arrivalMicros: BigInt(last.arrival_micros), tiebreak: BigInt(last.tiebreak) }) } : { entries };
  }

  /** The newest entry with this request id (a client may reuse one), among `own`'s when given. */
  async byRequestId(requestId: string, own?: JournalCaller): Promise<JournalEntry | null> {
    const conditions: string[] = [];
    const parameters: unknown[] = [requestId];
    if (own) {
      this.ownBy(own, (sql, value) => {
        parameters.push(value);
        conditions.push(sql(`$${parameters.length + 1}`));
      });
    }
    const rows = await this.db.query<Row[]>(
      `SELECT ${COLUMNS} FROM journal_entry WHERE sandbox_id = $1 AND request_id = $2${andAll(conditions)} ${NEWEST_FIRST} LIMIT 1`,
      parameters,
    );
    return rows.length > 0 ? toEntry(rows[0]) : null;
  }

  private ownBy(own: JournalCaller, where: (sql: (placeholder: string) => string, value: unknown) => void): void {
    where((p) => `caller_kind = ${p}`, own.kind);
    where((p) => `caller_id = ${p}`, own.id ?? '');
  }
}

/** More conditions after the sandbox's: " AND a AND b". */
function andAll(conditions: readonly string[]): string {
  return conditions.map((condition) => ` AND ${condition}`).join('');
}

function toEntry(row: Row): JournalEntry {
  return {
    requestId: row.request_id,
    arrivedAt: row.arrived_at,
    at: row.at,
    method: row.method,
    path: row.path,
    query: row.query,
    status: row.status,
    durationMs: row.duration_ms,
    caller: row.caller_id === null ? { kind: row.caller_kind } : { kind: row.caller_kind, id: row.caller_id },
    reasonCode: row.reason_code,
    request: row.request,
    response: row.response,
    hints: row.hints,
    replayed: row.replayed,
  };
}
