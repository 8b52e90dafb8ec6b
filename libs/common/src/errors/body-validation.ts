import { type ClassTransformOptions, plainToInstance } from 'class-transformer';
import { getMetadataStorage, validate, type ValidationError, ValidationTypes, type ValidatorOptions } from 'class-validator';
import { nestedPropertiesOf } from '../values/nested-object-array';
import type { Pacer } from '../values/pacer';
import { isPlainRecord } from '../values/text-input';
import { ProblemList } from './field-list';

type Dto = new () => object;

/** What class-validator knows of a DTO class: its properties in the order it checks them. */
interface DtoShape {
  properties: readonly string[];
  known: ReadonlySet<string>;
  /** Properties with a `@ValidateNested` that names no type the pipe can read (not NestedObject/NestedObjectArray). */
  opaqueNested: ReadonlySet<string>;
}

const SHAPES = new Map<Dto, DtoShape>();

function shapeOf(type: Dto): DtoShape {
  let shape = SHAPES.get(type);
  if (!shape) {
    // As class-validator's own executor reads them (no groups), so the order of its errors is this one.
    const storage = getMetadataStorage();
    const grouped = storage.groupByPropertyName(storage.getTargetValidationMetadatas(type, '', false, false));
    const properties = Object.keys(grouped);
    const declared = nestedPropertiesOf(type);
    const opaqueNested = properties.filter((property) => !declared.has(property) && grouped[property].some((m) => m.type === ValidationTypes.NESTED_VALIDATION));
    shape = { properties, known: new Set(properties), opaqueNested: new Set(opaqueNested) };
    SHAPES.set(type, shape);
  }
  return shape;
}

/** A value kept only for its kind: an object or array emptied, anything else as it is. */
const kindOnly = (value: unknown): unknown => (Array.isArray(value) ? [] : typeof value === 'object' && value !== null ? {} : value);

const define = (target: Record<string, unknown>, key: string, value: unknown): void => {
  // Defined, not assigned: a "__proto__" key stays data (it is refused by its name before this).
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
};

/**
 * A field's value as its validators read it: the value and what it holds directly (each element or
 * member, for `each` rules and type checks), and nothing deeper. Only nested DTOs look deeper, and
 * those are validated apart.
 */
function twoLevels(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(kindOnly);
  if (!isPlainRecord(value)) return value;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) define(copy, key, kindOnly(value[key]));
  return copy;
}

export type DescribeErrors = (errors: ValidationError[], parent: string) => string[];

export interface BodyValidationOptions {
  transform: ClassTransformOptions;
  validator: ValidatorOptions;
  describe: DescribeErrors;
  /** The turns of the request's work: the validation yields between objects once a slice has passed. */
  pacer: Pacer;
}

/**
 * The validation of one request body against its DTO, with the work bounded by what the DTO reads
 * (contract §2, bounded work): an unknown field is refused by its name, its value never copied nor
 * walked; a field's value is read two levels deep, as far as its rules look; and every object of a
 * nested DTO property (NestedObject, NestedObjectArray) is transformed and validated on its own, a
 * slice at a time, so a fixture of thousands of users and accounts never holds the event loop for
 * long. The problems are those class-validator finds over the whole body, in its order.
 */
export class BodyValidation {
  readonly problems = new ProblemList();

  constructor(private readonly options: BodyValidationOptions) {}

  /** The DTO instance (meaningful only when `problems` is empty). */
  run(value: Record<string, unknown>, type: Dto): Promise<object> {
    return this.validateObject(value, type, '');
  }

  private async validateObject(plain: Record<string, unknown>, type: Dto, path: string): Promise<object> {
    const shape = shapeOf(type);
    const declared = nestedPropertiesOf(type);
    const prepared: Record<string, unknown> = {};
    const arrays = new Map<string, { type: Dto; source: unknown[]; holes: unknown[] }>();
    const singles = new Map<string, { type: Dto; source: Record<string, unknown> }>();
    for (const key of Object.keys(plain)) {
      const field = plain[key];
      const nested = declared.get(key);
      if (!shape.known.has(key)) {
        // Refused as unknown by its name (whitelist); its value is never read.
        define(prepared, key, null);
      } else if (nested?.each && Array.isArray(field)) {
        // The array itself goes through its own rules (length, no array elements) with its objects
        // left out as holes, which ValidateNested skips; the objects are validated below.
        const holes: unknown[] = new Array(field.length);
        field.forEach((item, index) => {
          if (!isPlainRecord(item)) holes[index] = kindOnly(item);
        });
        arrays.set(key, { type: nested.type(), source: field, holes });
        define(prepared, key, []);
      } else if (nested && !nested.each && isPlainRecord(field)) {
        singles.set(key, { type: nested.type(), source: field });
      } else {
        define(prepared, key, shape.opaqueNested.has(key) ? field : twoLevels(field));
      }
    }
    const instance = plainToInstance(type, prepared, this.options.transform) as Record<string, unknown>;
    for (const [key, { holes }] of arrays) instance[key] = holes;
    const errors = await validate(instance, this.options.validator);
    const unknown: ValidationError[] = [];
    const byProperty = new Map<string, ValidationError[]>();
    for (const error of errors) {
      // A nested object left out: its verdict is its own validation's, below.
      if (singles.has(error.property)) continue;
      if (!shape.known.has(error.property)) unknown.push(error);
      else byProperty.set(error.property, [...(byProperty.get(error.property) ?? []), error]);
    }
    // class-validator lists unknown fields first, then each property in its order, nested ones within.
    this.problems.add(this.options.describe(unknown, path));
    for (const property of shape.properties) {
      this.problems.add(this.options.describe(byProperty.get(property) ?? [], path));
      const place = path ? `${path}.${property}` : property;
      const array = arrays.get(property);
      if (array) {
        const items: unknown[] = [];
        for (const [index, item] of array.source.entries()) {
          items.push(isPlainRecord(item) ? await this.validateObject(item, array.type, `${place}.${index}`) : array.holes[index]);
        }
        instance[property] = items;
      }
      const single = singles.get(property);
      if (single) instance[property] = await this.validateObject(single.source, single.type, place);
    }
    await this.options.pacer.pace();
    return instance;
  }
}
