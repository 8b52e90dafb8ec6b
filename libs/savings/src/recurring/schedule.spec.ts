import { occurrenceDate } from './schedule';

describe('recurring transfer schedule (contract §10)', () => {
  it('steps weekly by seven days', () => {
    expect([0, 1, 2].map((n) => occurrenceDate('2026-12-24', 'WEEKLY', n))).toEqual(['2026-12-24', '2026-12-31', '2027-01-07']);
  });

  it('keeps the day of month; a day past the month\'s end falls on its last day, and comes back after', () => {
    expect([0, 1, 2, 3].map((n) => occurrenceDate('2026-01-31', 'MONTHLY', n))).toEqual(['2026-01-31', '2026-02-28', '2026-03-31', '2026-04-30']);
    expect(occurrenceDate('2027-01-31', 'MONTHLY', 1)).toBe('2027-02-28');
    expect(occurrenceDate('2028-01-31', 'MONTHLY', 1)).toBe('2028-02-29');
  });

  it('steps quarterly by three months and yearly by twelve', () => {
    expect(occurrenceDate('2026-11-30', 'QUARTERLY', 1)).toBe('2027-02-28');
    expect(occurrenceDate('2026-11-30', 'QUARTERLY', 2)).toBe('2027-05-30');
    expect(occurrenceDate('2028-02-29', 'YEARLY', 1)).toBe('2029-02-28');
    expect(occurrenceDate('2028-02-29', 'YEARLY', 4)).toBe('2032-02-29');
  });
});
