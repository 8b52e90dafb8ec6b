import type { Hint } from './hint-catalogue';
import { arrivalIso } from './journal-arrival';

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
  /** Real time of arrival in microseconds since the epoch (nextArrivalMicros): the journal's order, the since/until filters and retention. */
  arrivalMicros: number;
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

/** The journal_entry columns a row fills, in order (`tiebreak` is the database's default). */
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
 * An entry's columns as text, in JOURNAL_ROW_COLUMNS order (JSON text for query, request, response
 * and hints; null for SQL NULL): what a JournalBatch encodes as one COPY line.
 */
export function journalRowValues(entry: NewJournalEntry): Array<string | null> {
  return [
    entry.sandboxId,
    entry.requestId,
    arrivalIso(entry.arrivalMicros),
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
  ];
}
