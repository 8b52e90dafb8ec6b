import { PipeTransform } from '@nestjs/common';
import { ValidationFailed } from '../errors/domain-error';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isUuid = (value: unknown): value is string => typeof value === 'string' && UUID.test(value);

/**
 * A path segment that must be a UUID (contract §2: every id the sandbox issues is one); anything else
 * is 400 naming the segment, a well-formed UUID naming nothing is the service's 404.
 */
export class UuidPipe implements PipeTransform<string, string> {
  constructor(private readonly field: string) {}

  transform(value: string): string {
    if (!isUuid(value)) throw new ValidationFailed(`${this.field} must be a UUID (got ${JSON.stringify(value)})`);
    return value.toLowerCase();
  }
}

