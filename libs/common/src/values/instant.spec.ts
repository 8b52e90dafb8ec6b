import fc from 'fast-check';
import { isWithin, parseInstant } from './instant';

const pad = (n: number, width = 2) => String(Math.abs(n)).padStart(width, '0');

/** An instant written as RFC 3339 at the given offset (minutes east of UTC), with a fraction of 0–9 digits. */
function rfc3339(at: Date, offsetMinutes: number, fractionDigits: number): string {
  const local = new Date(at.getTime() + offsetMinutes * 60_000);
  const fraction = fractionDigits === 0 ? '' : `.${pad(local.getUTCMilliseconds(), 3).padEnd(fractionDigits, '0').slice(0, fractionDigits)}`;
  const offset = offsetMinutes === 0 ? 'Z' : `${offsetMinutes < 0 ? '-' : '+'}${pad(Math.trunc(offsetMinutes / 60))}:${pad(offsetMinutes % 60)}`;
  return (
    `${pad(local.getUTCFullYear(), 4)}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}` +
    `T${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}${fraction}${offset}`
  );
}

describe('parseInstant: the one instant rule of the inputs (contract §2)', () => {
  it('reads every instant of years 0000–9999 as RFC 3339 writes it, at any offset, to the millisecond', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('0000-01-02T00:00:00Z'), max: new Date('9999-12-30T00:00:00Z'), noInvalidDate: true }),
        fc.integer({ min: -(23 * 60 + 59), max: 23 * 60 + 59 }),
        fc.integer({ min: 0, max: 9 }),
        (at, offsetMinutes, digits) => {
          const text = rfc3339(at, offsetMinutes, digits);
          const keptMs = digits >= 3 ? at.getUTCMilliseconds() : Number(pad(at.getUTCMilliseconds(), 3).slice(0, digits).padEnd(3, '0'));
          expect(parseInstant(text)?.getTime()).toBe(at.getTime() - at.getUTCMilliseconds() + keptMs);
        },
      ),
    );
  });

  it('agrees with Date.parse on every text it accepts, near-instants included: what is checked is what is used', () => {
    const valid = fc
      .tuple(fc.date({ min: new Date('1000-01-02T00:00:00Z'), max: new Date('9999-12-30T00:00:00Z'), noInvalidDate: true }), fc.integer({ min: -1439, max: 1439 }), fc.integer({ min: 0, max: 9 }))
      .map(([at, offset, digits]) => rfc3339(at, offset, digits));
    const unit = fc.constantFrom('0', '1', '2', '3', '5', '9', '-', ':', 'T', 'Z', '+', '.');
    const mutated = fc.tuple(valid, fc.nat(35), fc.string({ unit, maxLength: 2 })).map(([text, at, insert]) => text.slice(0, at) + insert + text.slice(at + 1));
    fc.assert(
      fc.property(fc.oneof(valid, mutated), (text) => {
        const parsed = parseInstant(text);
        if (parsed) expect(parsed.getTime()).toBe(Date.parse(text));
      }),
    );
  });

  it.each([
    '2026-W48-5T10:00:00Z',
    '2026-332T10:00:00Z',
    '20261127T100000Z',
    '2026-11-27T10:00:00,5Z',
    '2026-11-27T10Z',
    '2026-11-27T10:00:00',
    '2026-11-27 10:00:00Z',
    '2026-02-29T10:00:00Z',
    '2100-02-29T10:00:00Z',
    '2026-04-31T10:00:00Z',
    '2026-00-10T10:00:00Z',
    '2026-11-00T10:00:00Z',
    '2026-11-27T24:00:00Z',
    '2026-11-27T10:60:00Z',
    '2026-11-27T23:59:60Z',
    '2026-11-27T10:00:00+24:00',
    '2026-11-27T10:00:00+01:60',
    '2026-11-27T10:00:00.1234567890Z',
    '+002026-11-27T10:00:00Z',
    '2026-11-27T10:00:00.Z',
    ' 2026-11-27T10:00:00Z',
    '',
  ])('refuses %p', (text) => {
    expect(parseInstant(text)).toBeNull();
  });

  it('refuses what is not text', () => {
    for (const value of [undefined, null, 0, 1764237600000, {}, ['2026-11-27T10:00:00Z']]) expect(parseInstant(value)).toBeNull();
  });

  it('reads leap days, the years 0000–0099 as themselves, lowercase t and z, and -00:00', () => {
    expect(parseInstant('2024-02-29T12:00:00Z')?.toISOString()).toBe('2024-02-29T12:00:00.000Z');
    expect(parseInstant('2000-02-29T12:00:00Z')?.toISOString()).toBe('2000-02-29T12:00:00.000Z');
    expect(parseInstant('0099-12-31T23:59:59Z')?.toISOString()).toBe('0099-12-31T23:59:59.000Z');
    expect(parseInstant('2026-11-27t10:00:00z')?.toISOString()).toBe('2026-11-27T10:00:00.000Z');
    expect(parseInstant('2026-11-27T10:00:00-00:00')?.toISOString()).toBe('2026-11-27T10:00:00.000Z');
    expect(parseInstant('2026-11-27T00:30:00+01:00')?.toISOString()).toBe('2026-11-26T23:30:00.000Z');
  });

  it('reads the ISO 8601 extended forms without seconds and with a ±HHMM offset, as the contract\'s prose writes them', () => {
    expect(parseInstant('2025-11-01T00:00+01:00')?.toISOString()).toBe('2025-10-31T23:00:00.000Z');
    expect(parseInstant('2026-11-27T10:00Z')?.toISOString()).toBe('2026-11-27T10:00:00.000Z');
    expect(parseInstant('2026-11-27T10:00:00+0100')?.toISOString()).toBe('2026-11-27T09:00:00.000Z');
    expect(parseInstant('2026-11-27T10:00.5Z')).toBeNull();
    expect(parseInstant('2026-11-27T10:00:00+01')).toBeNull();
  });

  it('isWithin includes both ends and refuses an invalid Date', () => {
    const range = { earliest: new Date('1900-01-01T00:00:00Z'), latest: new Date('9000-01-01T00:00:00Z'), what: 'a range' };
    expect(isWithin(range.earliest, range)).toBe(true);
    expect(isWithin(range.latest, range)).toBe(true);
    expect(isWithin(new Date(range.latest.getTime() + 1), range)).toBe(false);
    expect(isWithin(new Date(range.earliest.getTime() - 1), range)).toBe(false);
    expect(isWithin(new Date(Number.NaN), range)).toBe(false);
  });
});
