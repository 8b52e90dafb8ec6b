/**
 * Real time of a request's arrival, in whole microseconds since the epoch: the order of the journal
 * (contract §14). Read from the monotonic high-resolution clock anchored on the wall clock, so two
 * requests within one millisecond keep their order; strictly increasing on this instance (two in one
 * microsecond are a microsecond apart). The sub-millisecond part is measured time, not a count of
 * what else arrived, so an entry's position says nothing about other requests.
 */
let anchorMs = Date.now() - performance.now();
let latest = 0;
/** A wall clock stepped by more than this (settimeofday, a VM resumed) moves the anchor; NTP's slewing moves both clocks alike. */
const REANCHOR_DRIFT_MS = 5;

export function nextArrivalMicros(): number {
  const elapsedMs = performance.now();
  const wallMs = Date.now();
  if (Math.abs(wallMs - (anchorMs + elapsedMs)) > REANCHOR_DRIFT_MS) anchorMs = wallMs - elapsedMs;
  const now = Math.floor((anchorMs + elapsedMs) * 1000);
  latest = now > latest ? now : latest + 1;
  return latest;
}

/** An arrival as ISO 8601 in UTC with six fractional digits: how it is written and compared in SQL (timestamptz keeps microseconds). */
export function arrivalIso(micros: number | bigint): string {
  const value = BigInt(micros);
  const ms = value / 1000n;
  return `${new Date(Number(ms)).toISOString().slice(0, -1)}${String(value - ms * 1000n).padStart(3, '0')}Z`;
}
