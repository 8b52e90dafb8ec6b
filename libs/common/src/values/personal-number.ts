import { stockholmCalendarDate } from './stockholm-time';

const TWELVE = /^(\d{4})(\d{2})(\d{2})-?(\d{4})$/;
const TEN = /^(\d{2})(\d{2})(\d{2})([-+]?)(\d{4})$/;

/**
 * A Swedish personal identity number in its stored form, 12 digits YYYYMMDDNNNC (contract §4): a real
 * date (or a coordination number's date + 60) and a Luhn check digit over YYMMDDNNN.
 */
export type PersonalNumber = string & { readonly __brand: 'PersonalNumber' };

/**
 * Reads YYYYMMDDNNNC (or YYYYMMDD-NNNC), YYMMDD-NNNC, YYMMDDNNNC and YYMMDD+NNNC. The century of a
 * 10-digit form is resolved against `today` (the sandbox clock, never the machine's): "-" or no
 * separator means younger than 100 years, "+" 100 years or older. Returns null when the text is not
 * a valid personal number (format, date or check digit).
 */
export function parsePersonalNumber(text: string, today: Date): PersonalNumber | null {
  const trimmed = text.trim();
  let twelve: string | null = null;
  const full = TWELVE.exec(trimmed);
  if (full) twelve = `${full[1]}${full[2]}${full[3]}${full[4]}`;
  const short = full ? null : TEN.exec(trimmed);
  if (short) {
    const [, yy, mm, dd, separator, tail] = short;
    const year = resolveCentury(Number(yy), Number(mm), Number(dd), separator === '+', today);
    twelve = `${year}${mm}${dd}${tail}`;
  }
  if (!twelve || !isValidTwelveDigits(twelve)) return null;
  return twelve as PersonalNumber;
}

/**
 * Date and check digit, exactly the contract's rule. (The `personnummer` package also refuses the
 * serial 000, which the contract, and clients generating numbers from it, accept.)
 */
export function isValidTwelveDigits(twelve: string): boolean {
  if (!/^\d{12}$/.test(twelve)) return false;
  const year = Number(twelve.slice(0, 4));
  const month = Number(twelve.slice(4, 6));
  const day = Number(twelve.slice(6, 8));
  const birthDay = day > 60 ? day - 60 : day;
  const date = new Date(Date.UTC(year, month - 1, birthDay));
  if (month < 1 || month > 12 || birthDay < 1 || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== birthDay) return false;
  return luhnCheckDigit(twelve.slice(2, 11)) === Number(twelve[11]);
}

/** The check digit over YYMMDDNNN: weights 2, 1, 2, …; digits of products summed. */
function luhnCheckDigit(nine: string): number {
  let sum = 0;
  for (let i = 0; i < 9; i++) {
    const product = Number(nine[i]) * (i % 2 === 0 ? 2 : 1);
    sum += product > 9 ? product - 9 : product;
  }
  return (10 - (sum % 10)) % 10;
}

/** The latest year ending in yy whose date (MMDD) is not after today, minus 100 for the "+" form. */
function resolveCentury(yy: number, month: number, day: number, hundredOrOlder: boolean, today: Date): number {
  const now = stockholmCalendarDate(today);
  let year = now.year - (((now.year - yy) % 100) + 100) % 100;
  // Coordination numbers add 60 to the day; compare on the real birth day.
  const birthDay = day > 60 ? day - 60 : day;
  const notYetBorn = Date.UTC(year, month - 1, birthDay) > Date.UTC(now.year, now.month - 1, now.day);
  if (notYetBorn) year -= 100;
  if (hundredOrOlder) year -= 100;
  return year;
}

/** The explanation used in VALIDATION_FAILED messages. */
export const PERSONAL_NUMBER_RULE =
  'must be a Swedish personal number YYYYMMDDNNNC (or YYMMDD-NNNC / YYMMDD+NNNC) with a valid date and check digit';
