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
