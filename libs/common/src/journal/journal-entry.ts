import type { Hint } from './hint-catalogue';

/** Who a request identified (contract §14), even when it was then refused. */
export const CALLER_KINDS = ['tpp', 'partner', 'end_user', 'anonymous'] as const;
export type CallerKind = (typeof CALLER_KINDS)[number];

export interface JournalCaller {
  kind: CallerKind;
  /** The TPP's organization id, the partner_id or the personal number; none for anonymous. */
  id?: string;
}

/** One recorded request, redacted, as the writer stores it. */
export interface NewJournalEntry {
  sandboxId: string;
  requestId: string;
  /** Real time of arrival (the since/until filters and retention). */
  arrivedAt: Date;
  /** The sandbox clock at arrival. */
  at: Date;
  method: string;
  path: string;
  query: Record<string, unknown>;
  status: number;
  durationMs: number;
  caller: JournalCaller;
  reasonCode: string | null;
  request: Record<string, unknown>;
  response: Record<string, unknown>;
  hints: Hint[];
  replayed: boolean;
}

/**
 * An entry as the writer buffers it until its batch is written: one JSON text of its row, the
 * columns by name (contract §14 fields), and its arrival for the batch's order. A buffered entry
 * lives up to a second, long enough for the garbage collector to copy whatever it references: a
 * string is one object, the graphs it was made from are many. The batch goes to the database as
 * one JSON array of these texts (JournalStore.insert).
 */
export interface JournalRow {
  arrivedAtMs: number;
  json: string;
}

export function journalRow(entry: NewJournalEntry): JournalRow {
  return {
    arrivedAtMs: entry.arrivedAt.getTime(),
    json: JSON.stringify({
      sandbox_id: entry.sandboxId,
      request_id: entry.requestId,
      arrived_at: entry.arrivedAt,
      at: entry.at,
      method: entry.method,
      path: entry.path,
      query: entry.query,
      status: entry.status,
      duration_ms: entry.durationMs,
      caller_kind: entry.caller.kind,
      caller_id: entry.caller.id ?? null,
      reason_code: entry.reasonCode,
      request: entry.request,
      response: entry.response,
      hints: entry.hints,
      hint_codes: entry.hints.map((hint) => hint.code),
      replayed: entry.replayed,
    }),
  };
}
