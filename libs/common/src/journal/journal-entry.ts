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
  /** JSON text: `{ "headers", "body"?, "body_truncated"? }`, redacted. */
  request: string;
  /** JSON text: `{ "body"?, "body_truncated"? }`, redacted. */
  response: string;
  hints: Hint[];
  replayed: boolean;
}

/** The journal_entry columns a row fills, in order (`seq` is numbered by the database). */
export const JOURNAL_ROW_COLUMNS = [
  'sandbox_id',
  'request_id',
  'arrived_at',
  'at',
  'method',
  'path',
  'query',
  'status',
  'duration_ms',
  'caller_kind',
  'caller_id',
  'reason_code',
  'request',
  'response',
  'hints',
  'hint_codes',
  'replayed',
] as const;

/**
 * An entry as the writer buffers it until its batch is written: its columns as text (JSON text for
 * query, request, response and hints), in JOURNAL_ROW_COLUMNS order, and its arrival for the
 * batch's order. A buffered entry lives until its batch is written, long enough for the garbage
 * collector to copy whatever it references: a few strings are a few objects, the graphs they were
 * made from are many. The store sends a batch as COPY text or as a text array per column
 * (JournalStore.insert).
 */
export interface JournalRow {
  arrivedAtMs: number;
  values: ReadonlyArray<string | null>;
}

export function journalRow(entry: NewJournalEntry): JournalRow {
  return {
    arrivedAtMs: entry.arrivedAt.getTime(),
    values: [
      entry.sandboxId,
      entry.requestId,
      entry.arrivedAt.toISOString(),
      entry.at.toISOString(),
      entry.method,
      entry.path,
      JSON.stringify(entry.query),
      String(entry.status),
      String(entry.durationMs),
      entry.caller.kind,
      entry.caller.id ?? null,
      entry.reasonCode,
      entry.request,
      entry.response,
      JSON.stringify(entry.hints),
      // Hint codes are upper-case letters and underscores: an array literal needs no quoting.
      `{${entry.hints.map((hint) => hint.code).join(',')}}`,
      entry.replayed ? 'true' : 'false',
    ],
  };
}
