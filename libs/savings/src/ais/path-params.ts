import { PipeTransform } from '@nestjs/common';
import { ValidationFailed } from '@app/common';

/** A path segment checked against a pattern; anything else is 400 naming the segment. */
export class PatternPipe implements PipeTransform<string, string> {
  constructor(
    private readonly field: string,
    private readonly pattern: RegExp,
    private readonly rule: string,
  ) {}

  transform(value: string): string {
    if (!this.pattern.test(value)) throw new ValidationFailed(`${this.field} ${this.rule} (got ${JSON.stringify(value)})`);
    return value;
  }
}

export const ACCOUNT_NUMBER = (field: string) => new PatternPipe(field, /^\d{8,15}$/, 'must be an account number, digits only');
export const CURRENCY = new PatternPipe('currency', /^[A-Z]{3}$/, 'must be three capital letters, e.g. SEK');
export const AMOUNT = new PatternPipe('amount', /^\d{1,13}(\.\d{1,2})?$/, 'must be a decimal with a dot and at most two decimals, e.g. 100.50');

/** The path parameters of AIS and PIS, documented alike (issue 9, contract §1). */
export const ACCOUNT_PARAM = {
  name: 'accountNumber',
  description: 'The account-number segment of bank §4.2/§4.3: clearing and account number, digits only',
  schema: { type: 'string' as const, pattern: '^\\d{8,15}$', example: '92501234567' },
};
export const CURRENCY_PARAM = {
  name: 'currency',
  description: 'ISO 4217 code; another currency than the account\'s answers false',
  schema: { type: 'string' as const, pattern: '^[A-Z]{3}$', example: 'SEK' },
};
export const AMOUNT_PARAM = {
  name: 'amount',
  description: 'A decimal with a dot and at most two decimals',
  schema: { type: 'string' as const, pattern: '^\\d{1,13}(\\.\\d{1,2})?$', example: '100.50' },
};
export const TRANSFER_ID_PARAM = { name: 'transferId', format: 'uuid', description: 'The transfer-id segment: the transfer\'s reference_id' };
