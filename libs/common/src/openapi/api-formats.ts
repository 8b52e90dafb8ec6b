import type { ApiPropertyOptions } from '@nestjs/swagger';

/**
 * Schema fragments for the sandbox's value types, spread into `@ApiProperty({ ...PERSONAL_NUMBER, … })`
 * so that every field of one kind is described alike (issue 9, contract §1).
 */

/** A personal number as the sandbox stores and answers it: 12 digits YYYYMMDDNNNC (contract §4). */
export const PERSONAL_NUMBER = {
  type: String,
  pattern: '^\\d{12}$',
  example: '191212121212',
  description: 'Swedish personal number, 12 digits YYYYMMDDNNNC',
} satisfies ApiPropertyOptions;

/**
 * A personal number as the sandbox reads it (contract §4): YYYYMMDDNNNC, or YYYYMMDD-NNNC,
 * YYMMDD-NNNC, YYMMDDNNNC, YYMMDD+NNNC; the date and check digit must be valid too.
 */
export const PERSONAL_NUMBER_INPUT = {
  type: String,
  pattern: '^(\\d{8}-?\\d{4}|\\d{6}[-+]?\\d{4})$',
  example: '191212121212',
  description: 'Swedish personal number YYYYMMDDNNNC (or YYMMDD-NNNC / YYMMDD+NNNC) with a valid date and check digit',
} satisfies ApiPropertyOptions;

/** An IPv4 or IPv6 address. */
export const IP_ADDRESS = {
  type: String,
  anyOf: [
    { type: 'string', format: 'ipv4' },
    { type: 'string', format: 'ipv6' },
  ],
  example: '192.0.2.10',
} satisfies ApiPropertyOptions;

/** A calendar date YYYY-MM-DD (Europe/Stockholm where it is a banking day). */
export const CALENDAR_DATE = { type: String, format: 'date', example: '2026-11-25' } satisfies ApiPropertyOptions;

/** An instant, RFC 3339 with an offset or Z. */
export const INSTANT = { type: String, format: 'date-time', example: '2026-11-24T09:00:00Z' } satisfies ApiPropertyOptions;

/** An id the sandbox issues (contract §2). */
export const UUID = { type: String, format: 'uuid', example: '3f2b8c1e-6a4d-4e8b-9c1a-2d5e7f9a0b13' } satisfies ApiPropertyOptions;

/** Clearing and account number, digits only. */
export const ACCOUNT_NUMBER = {
  type: String,
  pattern: '^\\d{8,15}$',
  example: '92501234567',
  description: 'Clearing and account number, digits only',
} satisfies ApiPropertyOptions;

/** An ISO 4217 currency code. */
export const CURRENCY = { type: String, pattern: '^[A-Z]{3}$', example: 'SEK', description: 'ISO 4217 currency code' } satisfies ApiPropertyOptions;

/** An amount of money as a JSON number with at most two decimals (contract §10). */
export const MONEY = { type: Number, format: 'double', example: 100.5 } satisfies ApiPropertyOptions;

/** Whole SEK (contract §9). */
export const WHOLE_SEK = { type: 'integer', minimum: 0, example: 2000000, description: 'Whole SEK' } satisfies ApiPropertyOptions;
