import { applyDecorators } from '@nestjs/common';
import { Type } from 'class-transformer';
import { IsObject, ValidateBy, ValidateNested } from 'class-validator';

type NestedClass = new () => object;

/** A property holding a nested DTO (`each`: an array of them), as the validation pipe reads it. */
export interface NestedProperty {
  type: () => NestedClass;
  each: boolean;
}

/** Where a DTO class keeps its nested properties (reflect-metadata reads a parent class's too). */
const NESTED_PROPERTIES = Symbol('nested DTO properties');

/** Records a nested property on its class, beside its parent classes' own (a subclass adds to a copy). */
const recordNested = (nested: NestedProperty): PropertyDecorator => (target, property) => {
  const owner = target.constructor;
  const inherited = Reflect.getMetadata(NESTED_PROPERTIES, owner) as ReadonlyMap<string, NestedProperty> | undefined;
  const own = (Reflect.getOwnMetadata(NESTED_PROPERTIES, owner) as Map<string, NestedProperty> | undefined) ?? new Map(inherited);
  own.set(String(property), nested);
  Reflect.defineMetadata(NESTED_PROPERTIES, own, owner);
};

/**
 * The nested DTO properties of a class, declared with NestedObject or NestedObjectArray: the
 * validation pipe validates what they hold one object at a time (contract §2, bounded work).
 */
export function nestedPropertiesOf(type: abstract new (...args: never[]) => object): ReadonlyMap<string, NestedProperty> {
  return (Reflect.getMetadata(NESTED_PROPERTIES, type) as ReadonlyMap<string, NestedProperty> | undefined) ?? new Map();
}

/** The index of the first element that is itself an array, or -1 (also for a value that is no array: its own rule says so). */
const firstArrayElement = (value: unknown): number => (Array.isArray(value) ? value.findIndex((item) => Array.isArray(item)) : -1);

/**
 * An array of `type` objects, each validated as one (use with `@IsArray()`); an element that is no
 * JSON object is refused by its path: `tpps.0 must be a JSON object` (contract §2), and nothing in
 * it is read. `@ValidateNested({ each: true })` refuses a number or null there, but walks into an
 * element that is itself an array, finds nothing to check, and let `{"tpps": [[]]}` through to the
 * use case (a 500).
 */
export const NestedObjectArray = (type: () => NestedClass): PropertyDecorator =>
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
    recordNested({ type, each: true }),
  );

/** One nested `type` object, validated as one; anything but a JSON object is refused with `message`. */
export const NestedObject = (type: () => NestedClass, message: string): PropertyDecorator =>
  applyDecorators(IsObject({ message }), ValidateNested(), Type(type), recordNested({ type, each: false }));
