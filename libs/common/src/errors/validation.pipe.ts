import { ArgumentMetadata, Injectable, ValidationError, ValidationPipe } from '@nestjs/common';
import { ValidationFailed } from './domain-error';

/** "applicants.0.personal_number must be …" for nested fields; class-validator says only the leaf. */
export function describeValidationErrors(errors: ValidationError[], parent = ''): string[] {
  return errors.flatMap((error) => {
    const path = parent ? `${parent}.${error.property}` : error.property;
    const own = Object.values(error.constraints ?? {}).map((message) =>
      parent && message.startsWith(error.property) ? `${parent}.${message}` : message,
    );
    return [...own, ...describeValidationErrors(error.children ?? [], path)];
  });
}

/**
 * The global pipe: whitelist + forbid unknown fields + transform, and every failure as 400
 * VALIDATION_FAILED whose message names the field (contract §2).
 */
@Injectable()
export class StrictValidationPipe extends ValidationPipe {
  constructor() {
    super({
      whitelist: true,
      forbidNonWhitelisted: true,
      forbidUnknownValues: true,
      transform: true,
      stopAtFirstError: true,
      validationError: { target: false, value: false },
      exceptionFactory: (errors) => new ValidationFailed(describeValidationErrors(errors).join('; ')),
    });
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    // A JSON array, string or number where an object DTO is expected is bad input, not a 500.
    // No body at all reads as an empty object, so the message names the missing fields.
    if (metadata.type === 'body' && value === undefined) value = {};
    if (metadata.type === 'body' && this.expectsObject(metadata) && !isPlainObject(value)) {
      throw new ValidationFailed('The request body must be a JSON object.');
    }
    return super.transform(value, metadata);
  }

  private expectsObject(metadata: ArgumentMetadata): boolean {
    const type = metadata.metatype;
    return !!type && ![String, Boolean, Number, Array, Object].includes(type as never);
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
