import type { InstantRange } from '../values/instant';

/**
 * Where the sandbox clock may be set or moved (contract §6), the creation setting of POST /sandboxes
 * included. Past year 9999 an instant has no four-digit year: toISOString writes +010000-01-01…,
 * which PostgreSQL cannot read back, so one sandbox's journal entries failed every batch they shared
 * with other sandboxes and its bookkeeping job failed for all. The upper bound leaves nearly a
 * thousand years for a running clock to run on and for the rules that reach ahead of it (a loan's
 * term, a certificate's year); an advance is at most 100 years. Before 1893 Stockholm's wall clock
 * was not a whole number of minutes off UTC, which its ±HH:MM offsets cannot write.
 */
export const SANDBOX_CLOCK_RANGE: InstantRange = {
  earliest: new Date('1900-01-01T00:00:00Z'),
  latest: new Date('9000-01-01T00:00:00Z'),
  what: "the sandbox clock's range (contract §6)",
};
