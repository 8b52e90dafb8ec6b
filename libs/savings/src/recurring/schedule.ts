import { formatCalendarDate, parseCalendarDate } from '@app/common';

export const FREQUENCIES = ['WEEKLY', 'MONTHLY', 'QUARTERLY', 'YEARLY'] as const;
export type Frequency = (typeof FREQUENCIES)[number];

const MONTHS: Record<Exclude<Frequency, 'WEEKLY'>, number> = { MONTHLY: 1, QUARTERLY: 3, YEARLY: 12 };

/**
 * The date of occurrence `n` (0 = the first, `transfer_date`) of a recurring transfer. Monthly,
 * quarterly and yearly occurrences keep the first date's day of month; a day past the month's end
 * falls on its last day (contract §10), and the next month goes back to the original day.
 */
export function occurrenceDate(first: string, frequency: Frequency, n: number): string {
  const start = parseCalendarDate(first);
  if (!start) throw new Error(`Not a calendar date: ${first}`);
  if (frequency === 'WEEKLY') {
    const date = new Date(Date.UTC(start.year, start.month - 1, start.day + 7 * n));
    return formatCalendarDate({ year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() });
  }
  const monthIndex = start.month - 1 + MONTHS[frequency] * n;
  const year = start.year + Math.floor(monthIndex / 12);
  const month = (monthIndex % 12) + 1;
  const lastDay = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return formatCalendarDate({ year, month, day: Math.min(start.day, lastDay) });
}
