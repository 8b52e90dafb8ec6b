import { applyDecorators } from '@nestjs/common';
import { Type } from 'class-transformer';
import { ValidateBy, ValidateNested } from 'class-validator';

/** The index of the first element that is itself an array, or -1 (also for a value that is no array: its own rule says so). */
const firstArrayElement = (value: unknown): number => (Array.isArray(value) ? value.findIndex((item) => Array.isArray(item)) : -1);

/**
 * An array of `type` objects, each validated as one (use with `@IsArray()`); an element that is no
 * JSON object is refused by its path: `tpps.0 must be a JSON object` (contract §2).
 * `@ValidateNested({ each: true })` refuses a number or null there, but walks into an element that
 * is itself an array, finds nothing to check, and let `{"tpps": [[]]}` through to the use case (a 500).
 */
export const NestedObjectArray = (type: () => new () => object): PropertyDecorator =>
  applyDecorators(
    ValidateBy({
      name: 'nestedObjectArray',
      validator: {
        validate: (value: unknown) => firstArrayElement(value) === -1,
        defaultMessage: (args) => `${args?.property}.${firstArrayElement(args?.value)} must be a JSON object`,
      },
    }),
    ValidateNested({ each: true }),
    Type(type),
  );
