/** The bank's wall clock is Europe/Stockholm (contract §5, §7, §10); IANA rules come from Intl. */
export const STOCKHOLM = 'Europe/Stockholm';

const dateParts = new Intl.DateTimeFormat('en-CA', {
  timeZone: STOCKHOLM,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

export interface CalendarDate {
  year: number;
  month: number;
  day: number;
}

/** The calendar date in Stockholm at instant `at`. */
export function stockholmCalendarDate(at: Date): CalendarDate {
  const parts = Object.fromEntries(dateParts.formatToParts(at).map((p) => [p.type, p.value]));
  return { year: Number(parts.year), month: Number(parts.month), day: Number(parts.day) };
}
