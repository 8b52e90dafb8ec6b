/**
 * The text and recipient rules of transfer bodies (bank §2.7, §8; contract §10). Pure functions; the
 * service turns a broken rule into 400 VALIDATION_FAILED naming the field.
 */

/** Maximum lengths in characters (bank §2.7). */
export const TEXT_LIMITS = { recipient_name: 140, counter_part_statement: 140, statement: 30 } as const;
export type TransferTextField = keyof typeof TEXT_LIMITS;

/** Every character is in ISO 8859-1 (Latin-1: code points up to U+00FF). */
export function isLatin1(text: string): boolean {
  for (const char of text) if (char.codePointAt(0)! > 0xff) return false;
  return true;
}

/** Contract §10: `recipient_name` is mandatory from 2025-11-01T00:00 Stockholm (sandbox clock). */
export const RECIPIENT_NAME_MANDATORY_FROM = '2025-11-01';

/** Clearing and account number, digits only (contract §10). */
const ACCOUNT_NUMBER = /^\d{8,15}$/;
/** Bankgiro: NNN-NNNN or NNNN-NNNN (contract §10), mod-10 check digit. */
const BANKGIRO = /^(\d{3,4})-(\d{4})$/;

export type RecipientKind = 'account' | 'bankgiro';

export function recipientKind(text: string): RecipientKind | null {
  if (ACCOUNT_NUMBER.test(text)) return 'account';
  const bankgiro = BANKGIRO.exec(text);
  return bankgiro && hasLuhnCheckDigit(bankgiro[1] + bankgiro[2]) ? 'bankgiro' : null;
}

function hasLuhnCheckDigit(digits: string): boolean {
  let sum = 0;
  [...digits].reverse().forEach((char, i) => {
    let digit = Number(char) * (i % 2 === 1 ? 2 : 1);
    if (digit > 9) digit -= 9;
    sum += digit;
  });
  return sum % 10 === 0;
}
