/**
 * Amounts are exact: kept as PostgreSQL numeric, carried in TypeScript as decimal strings or bigint
 * minor units, and never computed with floating point. JSON numbers arrive as JS numbers, whose
 * shortest decimal text is exact for at most two decimals.
 */
const DECIMAL = /^(-?)(\d+)(?:\.(\d{1,2}))?$/;

/**
 * The largest amount the sandbox takes, as a balance (admin, seed) or a transfer: 10 000 000 000 000
 * (numeric(18, 2) holds more). Up to it an amount with two decimals has at most 15 significant
 * digits, so the JSON number read is the one written; above it the nearest double can be another
 * amount (99999999999999.99 reads as 99999999999999.98), which would be stored without a word.
 */
export const MAX_AMOUNT = 10_000_000_000_000;

/** "1234.5" (from a JSON number or decimal text) → 123450n öre; null if not a decimal with ≤ 2 decimals. */
export function toMinorUnits(value: number | string): bigint | null {
  if (typeof value === 'number' && (!Number.isFinite(value) || Math.abs(value) > 1e15)) return null;
  const text = typeof value === 'number' ? numberToPlainText(value) : value.trim();
  const match = DECIMAL.exec(text);
  if (!match) return null;
  const [, sign, whole, fraction = ''] = match;
  const minor = BigInt(whole) * 100n + BigInt(fraction.padEnd(2, '0'));
  return sign ? -minor : minor;
}

/** 123450n → "1234.50", the text PostgreSQL numeric(…, 2) stores. */
export function minorUnitsToDecimal(minor: bigint): string {
  const sign = minor < 0n ? '-' : '';
  const abs = minor < 0n ? -minor : minor;
  return `${sign}${abs / 100n}.${String(abs % 100n).padStart(2, '0')}`;
}

/**
 * "1234.50" (numeric text from the database) → 1234.5 as a JSON number for responses (contract §10:
 * amounts as JSON numbers). Exact for every amount below 2^53 öre.
 */
export function decimalToJsonNumber(decimal: string): number {
  return Number(decimal);
}

function numberToPlainText(value: number): string {
  // Shortest round-trip text; numbers below 1e21 never use exponent notation except tiny ones.
  const text = String(value);
  return /e/i.test(text) ? value.toFixed(20).replace(/\.?0+$/, '') : text;
}
