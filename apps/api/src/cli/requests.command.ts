import { formatStockholmOffset } from '@app/common';
import type { JournalEntryDto } from '@app/sandbox';
import { type AdminClient, AdminRequestFailed, type JournalQuery } from './admin-client';
import { type TransportOptions, withAdminClient } from './admin-transport';
import type { CliIo } from './cli-io';

export interface TailRequestsOptions extends TransportOptions {
  /** `KIND` or `KIND:ID`: tpp, partner, end_user or anonymous, and the organization id, partner_id or personal number. */
  caller?: string;
  status?: string;
  pathPrefix?: string;
  hint?: string;
  /** How many of the newest entries to show first (1 to 500). */
  limit: string;
  follow?: boolean;
  json?: boolean;
}

/** How often --follow asks for new entries. */
export const FOLLOW_INTERVAL_MS = 1000;

/**
 * How far before the newest arrival seen each --follow poll looks again. An entry is written when
 * its answer is sent, up to a second later (contract §14: buffered), so one that arrived earlier
 * can be written after a later one; this window catches it, and printed entries are remembered so
 * that none is printed twice.
 */
export const FOLLOW_LOOKBACK_MS = 10_000;

const TAIL_SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/** The journal as one line per entry (contract §14): `requests tail`. */
export const requestsCommands = {
  tail: (options: TailRequestsOptions, io: CliIo) =>
    withAdminClient(options, io, async (client) => {
      const filters = journalFilters(options);
      const first = await client.listRequests({ ...filters, limit: options.limit });
      // The API answers newest first; a tail reads oldest to newest.
      const shown = [...first.entries].reverse();
      for (const entry of shown) io.out(options.json ? `${JSON.stringify(entry)}\n` : `${requestLine(entry)}\n`);
      if (!options.follow) return 0;
      await follow(client, filters, shown, (entry) => io.out(options.json ? `${JSON.stringify(entry)}\n` : `${requestLine(entry)}\n`), io);
      return 0;
    }),
};

/** `--caller tpp:PSDSE-FINA-44059` and the other filters as the query of GET /admin/requests; the API validates them. */
function journalFilters(options: TailRequestsOptions): JournalQuery {
  const filters: JournalQuery = { status: options.status, path_prefix: options.pathPrefix, hint: options.hint };
  if (options.caller !== undefined) {
    const colon = options.caller.indexOf(':');
    filters.caller_kind = colon < 0 ? options.caller : options.caller.slice(0, colon);
    if (colon >= 0) filters.caller_id = options.caller.slice(colon + 1);
  }
  return filters;
}

/**
 * One entry as a line: sandbox time (Stockholm), method, path, status, duration, caller, the
 * reason code of a refusal, then the hint codes.
 * `2026-11-24T10:00:01+01:00 GET /v2/accounts 401 12ms tpp:PSDSE-FINA-44059 UNAUTHORIZED [TOKEN_EXPIRED]`
 */
export function requestLine(entry: JournalEntryDto): string {
  const caller = entry.caller.id === undefined ? entry.caller.kind : `${entry.caller.kind}:${entry.caller.id}`;
  return [
    formatStockholmOffset(new Date(entry.at)),
    entry.method,
    entry.path,
    String(entry.status),
    `${entry.duration_ms}ms`,
    caller,
    ...(entry.reason_code === undefined ? [] : [entry.reason_code]),
    ...(entry.hints.length > 0 ? [`[${entry.hints.map((hint) => hint.code).join(', ')}]`] : []),
    ...(entry.replayed ? ['(replayed)'] : []),
  ].join(' ');
}

/** An entry's identity across polls: a client may reuse a request id, not at the same arrival with the same route. */
const entryKey = (entry: JournalEntryDto) => `${entry.arrived_at} ${entry.request_id} ${entry.method} ${entry.path}`;

/**
 * Prints every entry that arrives after the newest one shown (by real arrival time), once, polling
 * about every second, until SIGINT or SIGTERM. Each poll reads back FOLLOW_LOOKBACK_MS before the
 * newest arrival seen, every page of it, and skips what was printed. A service that cannot be
 * reached for a while (a restart) is reported once and polled again.
 */
async function follow(client: AdminClient, filters: JournalQuery, shown: JournalEntryDto[], print: (entry: JournalEntryDto) => void, io: CliIo): Promise<void> {
  let stopping = false;
  let wake: (() => void) | undefined;
  const onSignal = () => {
    stopping = true;
    wake?.();
  };
  /** FOLLOW_INTERVAL_MS, or less when a signal comes. */
  const pause = () =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, FOLLOW_INTERVAL_MS);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  for (const signal of TAIL_SIGNALS) io.signals.once(signal, onSignal);
  try {
    // Entries that arrived up to the newest shown are history: only later arrivals are printed.
    const history = shown.length > 0 ? Date.parse(shown[shown.length - 1].arrived_at) : -Infinity;
    const seen = new Map(shown.map((entry) => [entryKey(entry), Date.parse(entry.arrived_at)]));
    let newest = history;
    let unreachable = false;
    while (!stopping) {
      await pause();
      if (stopping) break;
      const since = Number.isFinite(newest) ? newest - FOLLOW_LOOKBACK_MS : undefined;
      let entries: JournalEntryDto[];
      try {
        entries = await allSince(client, filters, since);
      } catch (error) {
        // Gone for a moment (a restart of the service): say so once, and keep asking.
        if (!(error instanceof AdminRequestFailed) || (error.status !== 0 && error.status !== 503)) throw error;
        if (!unreachable) io.err(`${error.message} Still following…\n`);
        unreachable = true;
        continue;
      }
      if (unreachable) io.err('Following again.\n');
      unreachable = false;
      for (const entry of entries.reverse()) {
        const key = entryKey(entry);
        const arrived = Date.parse(entry.arrived_at);
        if (seen.has(key)) continue;
        seen.set(key, arrived);
        newest = Math.max(newest, arrived);
        if (arrived > history) print(entry);
      }
      // What the next poll cannot return again need not be remembered.
      for (const [key, arrived] of seen) if (arrived < newest - FOLLOW_LOOKBACK_MS) seen.delete(key);
    }
  } finally {
    for (const signal of TAIL_SIGNALS) io.signals.removeListener(signal, onSignal);
  }
}

/** Every entry that arrived at or after `since` (all of them without it), newest first, page by page. */
async function allSince(client: AdminClient, filters: JournalQuery, since: number | undefined): Promise<JournalEntryDto[]> {
  const entries: JournalEntryDto[] = [];
  let after: string | undefined;
  do {
    const page = await client.listRequests({ ...filters, since: since === undefined ? undefined : new Date(since).toISOString(), limit: '500', after });
    entries.push(...page.entries);
    after = page.next_after;
  } while (after !== undefined);
  return entries;
}
