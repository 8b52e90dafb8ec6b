import { Injectable, PipeTransform } from '@nestjs/common';
import { Clock } from '../clock/clock';
import { ValidationFailed } from '../errors/domain-error';
import { parsePersonalNumber, PERSONAL_NUMBER_RULE, type PersonalNumber } from './personal-number';

/**
 * Reads a personal number from a path segment or field, resolving a 10-digit form's century against
 * the sandbox clock; bad input is 400 VALIDATION_FAILED naming `field`.
 */
@Injectable()
export class PersonalNumberReader {
  constructor(private readonly clock: Clock) {}

  read(text: unknown, field = 'personal_number'): PersonalNumber {
    const parsed = typeof text === 'string' ? parsePersonalNumber(text, this.clock.now()) : null;
    if (!parsed) throw new ValidationFailed(`${field} ${PERSONAL_NUMBER_RULE} (got ${JSON.stringify(text)})`);
    return parsed;
  }
}

/** `@Param('personal_number', PersonalNumberPipe)`. */
@Injectable()
export class PersonalNumberPipe implements PipeTransform<string, PersonalNumber> {
  constructor(private readonly reader: PersonalNumberReader) {}

  transform(value: string): PersonalNumber {
    return this.reader.read(value);
  }
}
