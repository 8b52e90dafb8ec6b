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
