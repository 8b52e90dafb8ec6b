import { randomInt } from 'node:crypto';

/** The sandbox bank's clearing number; account numbers are clearing + 7 digits (contract §10). */
export const SANDBOX_CLEARING_NUMBER = '9250';

const WEIGHTS = [10, 9, 8, 7, 6, 5, 4, 3, 2, 1];

/**
 * Mod-11 check of a Swedish "type 1" account: the last three digits of the clearing number and the
 * seven-digit account number, weighted 10…1, sum to a multiple of 11.
 */
export function hasValidCheckDigit(accountNumber: string): boolean {
  if (!/^\d{11}$/.test(accountNumber)) return false;
  const digits = accountNumber.slice(1).split('').map(Number);
  return digits.reduce((sum, digit, i) => sum + digit * WEIGHTS[i], 0) % 11 === 0;
}

/** A random account number at the sandbox clearing number with a valid mod-11 check digit. */
export function generateAccountNumber(): string {
  for (;;) {
    const body = `${SANDBOX_CLEARING_NUMBER}${String(randomInt(1_000_000)).padStart(6, '0')}`;
    const partial = body.slice(1).split('').map(Number).reduce((sum, digit, i) => sum + digit * WEIGHTS[i], 0);
    // The check digit has weight 1: it must make the sum a multiple of 11; 10 is not a digit.
    const check = (11 - (partial % 11)) % 11;
    if (check < 10) return `${body}${check}`;
  }
}
