import { addDays, formatStockholmOffset, formatUtcSeconds, parseCalendarDate, stockholmCalendarDate, stockholmInstant, stockholmOffsetMinutes, stockholmToday } from './stockholm-time';

describe('Stockholm time (Europe/Stockholm through Intl)', () => {
  it('tells the Stockholm date, which differs from UTC after 23:00 UTC in winter', () => {
    expect(stockholmToday(new Date('2026-11-24T22:59:59Z'))).toBe('2026-11-24');
    expect(stockholmToday(new Date('2026-11-24T23:00:00Z'))).toBe('2026-11-25');
    expect(stockholmCalendarDate(new Date('2026-07-01T22:00:00Z'))).toEqual({ year: 2026, month: 7, day: 2 });
  });

  it('finds the instant of a wall-clock time in winter (+01:00) and summer (+02:00)', () => {
    expect(stockholmInstant('2026-11-25').toISOString()).toBe('2026-11-24T23:00:00.000Z');
    expect(stockholmInstant('2026-07-01').toISOString()).toBe('2026-06-30T22:00:00.000Z');
  });

  it('is right on the days daylight-saving time changes', () => {
    // 2026-03-29: clocks go 02:00 → 03:00; midnight is still +01:00, 04:00 is +02:00.
    expect(stockholmInstant('2026-03-29').toISOString()).toBe('2026-03-28T23:00:00.000Z');
    expect(stockholmInstant('2026-03-29', 4).toISOString()).toBe('2026-03-29T02:00:00.000Z');
    // 2026-10-25: clocks go 03:00 → 02:00; midnight is +02:00, 04:00 is +01:00.
    expect(stockholmInstant('2026-10-25').toISOString()).toBe('2026-10-24T22:00:00.000Z');
    expect(stockholmInstant('2026-10-25', 4).toISOString()).toBe('2026-10-25T03:00:00.000Z');
  });

  it('parses real calendar dates only', () => {
    expect(parseCalendarDate('2026-02-28')).toEqual({ year: 2026, month: 2, day: 28 });
    expect(parseCalendarDate('2026-02-29')).toBeNull();
    expect(parseCalendarDate('2028-02-29')).not.toBeNull();
    expect(parseCalendarDate('2026-13-01')).toBeNull();
    expect(parseCalendarDate('26-01-01')).toBeNull();
  });

  it('adds days across months and years', () => {
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
  });
});

describe('Stockholm time remembered per minute and hour (issue 19: read on every request)', () => {
  it('changes date at Stockholm midnight, asked second by second across it, and back', () => {
    const seconds = ['2026-11-24T22:59:58Z', '2026-11-24T22:59:59Z', '2026-11-24T23:00:00Z', '2026-11-24T23:00:01Z', '2026-11-24T22:59:59Z'];
    expect(seconds.map((at) => stockholmToday(new Date(at)))).toEqual(['2026-11-24', '2026-11-24', '2026-11-25', '2026-11-25', '2026-11-24']);
  });

  it('changes offset at the daylight-saving changes, asked second by second across them', () => {
    const spring = ['2026-03-29T00:59:59Z', '2026-03-29T01:00:00Z', '2026-03-29T00:59:59Z'];
    expect(spring.map((at) => stockholmOffsetMinutes(new Date(at)))).toEqual([60, 120, 60]);
    const autumn = ['2026-10-25T00:59:59Z', '2026-10-25T01:00:00Z', '2026-10-25T00:59:59Z'];
    expect(autumn.map((at) => stockholmOffsetMinutes(new Date(at)))).toEqual([120, 60, 120]);
  });

  it('hands out a date that changing does not change the next answer', () => {
    const date = stockholmCalendarDate(new Date('2026-11-24T12:00:00Z'));
    date.day = 1;
    expect(stockholmCalendarDate(new Date('2026-11-24T12:00:30Z'))).toEqual({ year: 2026, month: 11, day: 24 });
  });
});

describe('timestamp formats (contract §9)', () => {
  it('formats with the Stockholm offset, to the second', () => {
    expect(formatStockholmOffset(new Date('2026-11-24T09:00:05.987Z'))).toBe('2026-11-24T10:00:05+01:00');
    expect(formatStockholmOffset(new Date('2026-07-01T22:30:00Z'))).toBe('2026-07-02T00:30:00+02:00');
    expect(formatUtcSeconds(new Date('2026-11-24T09:00:05.987Z'))).toBe('2026-11-24T09:00:05Z');
  });
});
