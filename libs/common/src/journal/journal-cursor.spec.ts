import fc from 'fast-check';
import { arrivalIso, nextArrivalMicros } from './journal-arrival';
import { decodeJournalCursor, encodeJournalCursor } from './journal-cursor';

const LATEST_ARRIVAL_MICROS = 253_402_300_799_999_999n;

describe('journal cursor (contract §14: next_after is opaque and names its own entry only)', () => {
  it('reads back every position it writes, and nothing else the service could not have written', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: LATEST_ARRIVAL_MICROS }), fc.bigInt({ min: 0n, max: (1n << 63n) - 1n }), (arrivalMicros, tiebreak) => {
        const cursor = encodeJournalCursor({ arrivalMicros, tiebreak });
        expect(cursor).toMatch(/^[A-Za-z0-9_-]{22}$/);
        expect(decodeJournalCursor(cursor)).toEqual({ arrivalMicros, tiebreak });
      }),
    );
    for (const text of ['', '1042', 'A'.repeat(21), 'A'.repeat(23), `${'A'.repeat(21)}B`, `${'A'.repeat(20)}+A`, '__________8AAAAAAAAAAA', 'AAAAAAAAAAD__________w']) {
      expect(decodeJournalCursor(text)).toBeNull();
    }
  });

  it('writes an arrival with its microseconds, as timestamptz keeps them', () => {
    expect(arrivalIso(1_795_514_400_123_456)).toBe('2026-11-24T10:00:00.123456Z');
    expect(arrivalIso(LATEST_ARRIVAL_MICROS)).toBe('9999-12-31T23:59:59.999999Z');
    expect(arrivalIso(0)).toBe('1970-01-01T00:00:00.000000Z');
  });

  it('numbers arrivals strictly increasing on this instance, close to the wall clock', () => {
    const arrivals = Array.from({ length: 1000 }, () => nextArrivalMicros());
    for (let i = 1; i < arrivals.length; i++) expect(arrivals[i]).toBeGreaterThan(arrivals[i - 1]);
    expect(Math.abs(arrivals[arrivals.length - 1] / 1000 - Date.now())).toBeLessThan(1000);
  });
});
