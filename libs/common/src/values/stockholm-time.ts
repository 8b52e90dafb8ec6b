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

/**
 * The last minute asked and its date: Intl's formatting is costly and a hot path asks for the date
 * on every request (issue 19). Stockholm's date only changes at its midnight, which is a whole UTC
 * minute (its offsets are whole hours), so one minute has one date.
 */
let lastDate: { minute: number; date: CalendarDate } | null = null;

/** The calendar date in Stockholm at instant `at`. */
export function stockholmCalendarDate(at: Date): CalendarDate {
  const minute = Math.floor(at.getTime() / 60_000);
  if (lastDate?.minute !== minute) {
    const parts = Object.fromEntries(dateParts.formatToParts(at).map((p) => [p.type, p.value]));
    lastDate = { minute, date: { year: Number(parts.year), month: Number(parts.month), day: Number(parts.day) } };
  }
  return { ...lastDate.date };
}

/** "YYYY-MM-DD" of a calendar date. */
export function formatCalendarDate({ year, month, day }: CalendarDate): string {
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** Today's date in Stockholm at instant `at`, as "YYYY-MM-DD". */
export function stockholmToday(at: Date): string {
  return formatCalendarDate(stockholmCalendarDate(at));
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** "YYYY-MM-DD" → the calendar date, or null when it is not a real date (2026-02-30). */
export function parseCalendarDate(text: string): CalendarDate | null {
  const match = ISO_DATE.exec(text);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const probe = new Date(Date.UTC(year, month - 1, day));
  return probe.getUTCFullYear() === year && probe.getUTCMonth() === month - 1 && probe.getUTCDate() === day ? { year, month, day } : null;
}

const wallClock = new Intl.DateTimeFormat('en-CA', {
  timeZone: STOCKHOLM,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

/** The last hour asked and its offset: Stockholm's offset changes only on a whole UTC hour (01:00). */
let lastOffset: { hour: number; minutes: number } | null = null;

/** Stockholm's offset from UTC at instant `at`, in minutes (+60 in winter, +120 in summer). */
export function stockholmOffsetMinutes(at: Date): number {
  const hour = Math.floor(at.getTime() / 3_600_000);
  if (lastOffset?.hour !== hour) {
    const p = Object.fromEntries(wallClock.formatToParts(at).map((part) => [part.type, part.value]));
    const asUtc = Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second));
    lastOffset = { hour, minutes: Math.round((asUtc - Math.floor(at.getTime() / 1000) * 1000) / 60_000) };
  }
  return lastOffset.minutes;
}

/**
 * The instant a Stockholm wall-clock time occurs ("2026-03-29", 4, 0 → 02:00Z). Correct across
 * daylight-saving changes: the offset is the one in force at that wall-clock time.
 */
export function stockholmInstant(date: string, hour = 0, minute = 0): Date {
  const day = parseCalendarDate(date);
  if (!day) throw new Error(`Not a calendar date: ${date}`);
  const naive = Date.UTC(day.year, day.month - 1, day.day, hour, minute);
  // Two passes settle on the offset of the target instant, not of the naive guess.
  let instant = naive - stockholmOffsetMinutes(new Date(naive)) * 60_000;
  instant = naive - stockholmOffsetMinutes(new Date(instant)) * 60_000;
  return new Date(instant);
}

/** Adds whole days to a "YYYY-MM-DD" date. */
export function addDays(date: string, days: number): string {
  const day = parseCalendarDate(date);
  if (!day) throw new Error(`Not a calendar date: ${date}`);
  const next = new Date(Date.UTC(day.year, day.month - 1, day.day + days));
  return formatCalendarDate({ year: next.getUTCFullYear(), month: next.getUTCMonth() + 1, day: next.getUTCDate() });
}

/** ISO 8601 to the second with Stockholm's offset: "2026-11-24T10:00:05+01:00" (contract §9). */
export function formatStockholmOffset(at: Date): string {
  const offset = stockholmOffsetMinutes(at);
  const local = new Date(Math.floor(at.getTime() / 1000) * 1000 + offset * 60_000);
  const sign = offset >= 0 ? '+' : '-';
  const hh = String(Math.floor(Math.abs(offset) / 60)).padStart(2, '0');
  const mm = String(Math.abs(offset) % 60).padStart(2, '0');
  return `${local.toISOString().slice(0, 19)}${sign}${hh}:${mm}`;
}

/** ISO 8601 in UTC to the second: "2026-11-24T09:00:05Z" (contract §9). */
export const formatUtcSeconds = (at: Date): string => `${new Date(Math.floor(at.getTime() / 1000) * 1000).toISOString().slice(0, 19)}Z`;
