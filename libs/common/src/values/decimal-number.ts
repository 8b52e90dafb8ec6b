import { Transform } from 'class-transformer';
import { ValidateBy, type ValidationOptions } from 'class-validator';

/**
 * How many decimals a finite number's value has, read from its shortest round-trip text, exponent
 * forms included (`1e-7` → 7, `1E2` → 0, `1.25e-3` → 5); null when not finite. Contract §2: a JSON
 * number may be written in any form and the rules apply to the value. (class-validator's
 * `maxDecimalPlaces` splits `String(value)` on "." and threw on `1e-7`: a 500.)
 */
export function decimalPlaces(value: number): number | null {
  if (!Number.isFinite(value)) return null;
  const match = /^(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(String(Math.abs(value)));
  if (!match) return null;
  const [, , fraction = '', exponent = '0'] = match;
  return Math.max(0, fraction.length - Number(exponent));
}

/** A finite JSON number with at most `places` decimals (money: 2). */
export function isDecimalNumber(value: unknown, places: number): value is number {
  if (typeof value !== 'number') return false;
  const decimals = decimalPlaces(value);
  return decimals !== null && decimals <= places;
}

/**
 * The one decimal-places check of the service (amounts, balances, seconds, rates): a finite number
 * with at most `places` decimals. Use it instead of `@IsNumber({ maxDecimalPlaces })`.
 */
export const IsDecimalNumber = (places: number, options?: ValidationOptions) =>
  ValidateBy(
    {
      name: 'isDecimalNumber',
      constraints: [places],
      validator: {
        validate: (value: unknown) => isDecimalNumber(value, places),
        defaultMessage: (args) => `${args?.property} must be a finite number with at most ${places} decimals`,
      },
    },
    options,
  );

/** A number written as JSON writes one (RFC 8259 §6): no hex, no blanks, no empty text, no leading + or 0, no Infinity. */
const JSON_NUMBER_TEXT = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** The number a query value writes as a JSON number (`1e2` too, contract §2), else null. */
export function parseQueryNumber(text: string): number | null {
  return JSON_NUMBER_TEXT.test(text) ? Number(text) : null;
}

/**
 * A query parameter read as a number only when written as a JSON number; anything else ('', ' ',
 * `0x10`, `1_000`, `Infinity`, a repeated parameter) stays as sent, so the field's number rule
 * refuses it with 400 naming the parameter. Use instead of `@Type(() => Number)`, which reads '' and
 * ' ' as 0 and `0x10` as 16.
 */
export const QueryNumber = () =>
  Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? (parseQueryNumber(value) ?? value) : value));

