import { ValidateBy, type ValidationOptions } from 'class-validator';

/**
 * The one instant (date-time) the service reads, in a body field or a query parameter (contract §2,
 * §6, §14, §16): ISO 8601's extended date-time as RFC 3339 writes it — a real calendar date, `T`,
 * hours 00–23 and minutes, optional seconds and fraction, then `Z` or an offset ±HH:MM (or ±HHMM) —
 * so `2026-11-24T10:00+01:00`, which the contract's own prose writes, is read too. ISO 8601's other
 * spellings (week dates 2026-W48-5, ordinal dates 2026-332, the basic format 20261127T100000Z, a
 * decimal comma, an hour alone 2026-11-27T10Z) are refused: class-validator's IsISO8601 let them
 * through, and PostgreSQL or the clock then failed on them (a 500).
 */
const INSTANT_TEXT = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?:[Zz]|([+-])(\d{2}):?(\d{2}))$/;

/** A date and time of day without an offset: local time, which names no instant. */
const LOCAL_TIME = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?$/;

export const INSTANT_RULE = 'an ISO 8601 date-time (RFC 3339) with a time-zone offset or Z, e.g. 2026-11-24T10:00:00+01:00, 2026-11-24T10:00+01:00 or 2026-11-24T09:00:00.5Z';

/** A span of instants an input must fall in, both ends included; `what` names it in the refusal. */
export interface InstantRange {
  earliest: Date;
  latest: Date;
  what: string;
}

/**
 * The instant a text names under INSTANT_TEXT, to the millisecond (further fraction digits are
 * cut), or null when it names none (2026-02-30, 24:00:00, a leap second 23:59:60, offset +24:00).
 * Parsed here rather than by `new Date()`, which rolls 2026-02-30 over into March and reads many
 * spellings this rule refuses.
 */
export function parseInstant(text: unknown): Date | null {
  if (typeof text !== 'string') return null;
  const match = INSTANT_TEXT.exec(text);
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map((part) => Number(part ?? 0));
  const milliseconds = Number((match[7] ?? '').padEnd(3, '0').slice(0, 3));
  const [sign, offsetHours, offsetMinutes] = [match[8], Number(match[9] ?? 0), Number(match[10] ?? 0)];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 59 || offsetHours > 23 || offsetMinutes > 59) return null;
  const utc = new Date(0);
  // setUTCFullYear, not Date.UTC: Date.UTC reads the years 0–99 as 1900–1999.
  utc.setUTCFullYear(year, month - 1, day);
  utc.setUTCHours(hour, minute, second, milliseconds);
  const offsetMs = (sign === '-' ? -1 : 1) * (offsetHours * 60 + offsetMinutes) * 60_000;
  return new Date(utc.getTime() - offsetMs);
}

/** The instant of a text IsInstant accepted (a validated DTO field); any other text is a bug. */
export function instantOf(text: string): Date {
  const instant = parseInstant(text);
  if (!instant) throw new Error(`${JSON.stringify(text)} is no instant: the field lacks IsInstant`);
  return instant;
}

/** Whether the instant is a real one inside the range, both ends included. */
export function isWithin(instant: Date, range: InstantRange): boolean {
  const ms = instant.getTime();
  return ms >= range.earliest.getTime() && ms <= range.latest.getTime();
}

/** The refusal of an instant outside the range, naming the field. */
export function outsideRangeMessage(field: string, range: InstantRange): string {
  return `${field} must be from ${range.earliest.toISOString()} to ${range.latest.toISOString()}, ${range.what}`;
}

/**
 * The one validator of every date-time input (body field or query parameter): INSTANT_RULE and,
 * with `within`, that range. A refusal is 400 VALIDATION_FAILED naming the field (contract §2).
 * Services read the value with `instantOf`, so what was checked is what is used.
 */
export const IsInstant = (within?: InstantRange, options?: ValidationOptions) =>
  ValidateBy(
    {
      name: 'isInstant',
      constraints: [within],
      validator: {
        validate: (value: unknown) => {
          const instant = parseInstant(value);
          return instant !== null && (within === undefined || isWithin(instant, within));
        },
        defaultMessage: (args) => {
          const field = String(args?.property);
          if (parseInstant(args?.value) !== null && within) return outsideRangeMessage(field, within);
          const text = typeof args?.value === 'string' ? args.value : '';
          if (LOCAL_TIME.test(text)) return `${field} must carry a time-zone offset or Z (it must be ${INSTANT_RULE})`;
          // A + of an offset in a query string arrives as a space unless it was sent as %2B.
          const plusAsSpace = / \d{2}:\d{2}$/.test(text);
          return `${field} must be ${INSTANT_RULE}${plusAsSpace ? ' (in a query, send the + of an offset as %2B)' : ''}`;
        },
      },
    },
    options,
  );

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}
