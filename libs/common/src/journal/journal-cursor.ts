import { arrivalIso } from './journal-arrival';

/**
 * A place in a sandbox's journal (contract §14): an entry's own arrival (real time, microseconds since
 * the epoch) and its random tiebreak. Nothing else: no sequence shared by sandboxes, so from two
 * cursors nobody can count another's requests.
 */
export interface JournalPosition {
  arrivalMicros: bigint;
  tiebreak: bigint;
}

/** The last arrival timestamptz holds (9999-12-31T23:59:59.999999Z); tiebreaks are bigint, not negative. */
const LATEST_ARRIVAL_MICROS = 253_402_300_799_999_999n;
const MAX_TIEBREAK = (1n << 63n) - 1n;
/** 16 bytes as base64url without padding. */
const CURSOR = /^[A-Za-z0-9_-]{22}$/;

/** `next_after`: the position as 16 bytes, base64url; opaque to clients. */
export function encodeJournalCursor(position: JournalPosition): string {
  const bytes = Buffer.alloc(16);
  bytes.writeBigUInt64BE(position.arrivalMicros, 0);
  bytes.writeBigUInt64BE(position.tiebreak, 8);
  return bytes.toString('base64url');
}

/** The position an `after` names; null when it is no cursor the service could have given. */
export function decodeJournalCursor(text: string): JournalPosition | null {
  if (!CURSOR.test(text)) return null;
  const bytes = Buffer.from(text, 'base64url');
  // The last character carries 2 bits of padding: only the form the service writes is one.
  if (bytes.length !== 16 || bytes.toString('base64url') !== text) return null;
  const position = { arrivalMicros: bytes.readBigUInt64BE(0), tiebreak: bytes.readBigUInt64BE(8) };
  return position.arrivalMicros <= LATEST_ARRIVAL_MICROS && position.tiebreak <= MAX_TIEBREAK ? position : null;
}

/** The position's arrival as SQL reads it. */
export const positionArrival = (position: JournalPosition): string => arrivalIso(position.arrivalMicros);
