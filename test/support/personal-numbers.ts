import { randomInt } from 'node:crypto';

/** Luhn check digit over YYMMDDNNN. */
export function luhnDigit(nine: string): number {
  let sum = 0;
  for (let i = 0; i < 9; i++) {
    let d = Number(nine[i]) * (i % 2 === 0 ? 2 : 1);
    if (d > 9) d -= 9;
    sum += d;
  }
  return (10 - (sum % 10)) % 10;
}

/** A fresh valid 12-digit personal number, born in `year` (1950–1999 by default). */
export function newPersonalNumber(year = 1950 + randomInt(50)): string {
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  const mmdd = `${pad(1 + randomInt(12))}${pad(1 + randomInt(28))}`;
  const nnn = pad(randomInt(1000), 3);
  const nine = `${String(year).slice(2)}${mmdd}${nnn}`;
  return `${year}${mmdd}${nnn}${luhnDigit(nine)}`;
}

export const withWrongCheckDigit = (pn: string) => pn.slice(0, 11) + ((Number(pn[11]) + 1) % 10);

/** YYMMDD-NNNC (or + for 100 years and older). */
export const tenDigitForm = (pn: string, separator: '-' | '+' = '-') => `${pn.slice(2, 8)}${separator}${pn.slice(8)}`;
