import { ArgumentMetadata, Injectable, ValidationError, ValidationPipe } from '@nestjs/common';
import type { ValidatorOptions } from 'class-validator';
import { BodyValidation } from './body-validation';
import { ValidationFailed } from './domain-error';
import { listAtMost } from './field-list';
import { Pacer } from '../values/pacer';
import { CONTROL_CHARACTER_RULE, findTextInputProblem, inspectTextInput, isPlainRecord, LONE_SURROGATE_RULE, type TextInputProblem, withoutNullFields } from '../values/text-input';

type Dto = new () => object;

/** What class-validator is asked for: every rule of a field, and the value kept on the errors (never rendered). */
const VALIDATOR_OPTIONS: ValidatorOptions = {
  whitelist: true,
  forbidNonWhitelisted: true,
  forbidUnknownValues: true,
  // Every rule of a field is checked, and brokenRule picks the one to report; the value is kept on the
  // errors (never rendered) to tell an absent field from a wrong one.
  validationError: { target: false, value: true },
};

/** "applicants.0.personal_number must be …" for nested fields; class-validator says only the leaf. */
export function describeValidationErrors(errors: ValidationError[], parent = ''): string[] {
  return errors.flatMap((error) => {
    const path = parent ? `${parent}.${error.property}` : error.property;
    const broken = brokenRule(error, path);
    const own = broken === undefined ? [] : [parent && broken.startsWith(error.property) ? `${parent}.${broken}` : broken];
    return [...own, ...describeValidationErrors(error.children ?? [], path)];
  });
}

/**
 * The one rule to report for a field, whatever order class-validator checked them in (bottom-up):
 * an unknown field is named as one; an absent required field is said to be required; else the
 * top-most broken rule, because a DTO lists a field's type rule first and its ranges after — "10"
 * for a number breaks both, and "must be a number" is the news, not "must be at most 100 years".
 * ValidateNested's own words ("nested property users must be either object or array") name neither
 * the element nor the rule: alone (an array element that is no object) it becomes "must be a JSON
 * object"; beside the field's own type rule (`@IsArray`, `@IsObject`) that rule speaks.
 */
function brokenRule(error: ValidationError, path: string): string | undefined {
  if (!error.constraints) return undefined;
  const { nestedValidation, ...constraints } = error.constraints;
  if (constraints.whitelistValidation) return `property ${path} should not exist`;
  if (error.value === undefined) return `${error.property} is required`;
  const messages = Object.values(constraints);
  if (messages.length === 0 && nestedValidation) return `${error.property} must be a JSON object`;
  return messages[messages.length - 1];
}

/**
 * The global pipe: whitelist + forbid unknown fields + transform, and every failure as 400
 * VALIDATION_FAILED whose message names the field (contract §2), at most the first 10 of them with
 * a count of the rest. It sees every body, query, path parameter and custom parameter (e.g. the
 * token form) before any route's own pipe, so the text rules of contract §2 (no control characters,
 * no prototype keys) and "null means absent" are enforced here once for every route. A JSON body is
 * validated with its work bounded (BodyValidation: contract §2, bounded work).
 */
@Injectable()
export class StrictValidationPipe extends ValidationPipe {
  constructor() {
    super({
      ...VALIDATOR_OPTIONS,
      transform: true,
      exceptionFactory: (errors) => new ValidationFailed(listAtMost(describeValidationErrors(errors))),
    });
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    // A JSON array, string or number where an object DTO is expected is bad input, not a 500.
    // No body at all reads as an empty object, so the message names the missing fields.
    if (metadata.type === 'body' && value === undefined) value = {};
    if (metadata.type === 'body' && this.expectsObject(metadata) && !isPlainObject(value)) {
      throw new ValidationFailed('The request body must be a JSON object.');
    }
    if (metadata.type !== 'body') {
      refuseBadText(value, metadata);
      return super.transform(value, metadata);
    }
    // A body may hold 300 000 values within the limits of bounded work (contract §2): its walks and
    // its validation let other requests run between slices.
    const pacer = new Pacer();
    const { problem, holdsNull } = await inspectTextInput(value, metadata.data ?? '', { prototypeKeys: true }, pacer);
    if (problem) throw textInputFailure(problem, metadata);
    // withoutNullFields copies only a body that holds a null.
    if (holdsNull) value = withoutNullFields(value);
    if (this.expectsObject(metadata) && isPlainRecord(value)) return this.validateBody(value, metadata.metatype as Dto, pacer);
    return super.transform(value, metadata);
  }

  /** A JSON object body as its DTO: the instance, or 400 naming the first 10 problems and counting the rest. */
  protected async validateBody(value: Record<string, unknown>, type: Dto, pacer = new Pacer()): Promise<unknown> {
    const validation = new BodyValidation({ transform: {}, validator: VALIDATOR_OPTIONS, describe: describeValidationErrors, pacer });
    const instance = await validation.run(value, type);
    if (validation.problems.count > 0) throw new ValidationFailed(validation.problems.message());
    return instance;
  }

  private expectsObject(metadata: ArgumentMetadata): boolean {
    const type = metadata.metatype;
    return !!type && ![String, Boolean, Number, Array, Object].includes(type as never);
  }
}

/** Contract §2: control characters and `__proto__`/`constructor`/`prototype` keys are 400 naming the field. */
function refuseBadText(value: unknown, metadata: ArgumentMetadata): void {
  // Custom parameters (the token form) ignore unknown names, prototype keys among them (RFC 6749 §3.2).
  const problem = findTextInputProblem(value, metadata.data ?? '', { prototypeKeys: metadata.type !== 'custom' });
  if (problem) throw textInputFailure(problem, metadata);
}

function textInputFailure(problem: TextInputProblem, metadata: ArgumentMetadata): ValidationFailed {
  const field = problem.path || (metadata.type === 'param' ? 'the path segment' : `the ${metadata.type} value`);
  return new ValidationFailed(
    problem.kind === 'prototype-key' ? `property ${field} should not exist` : `${field} ${problem.kind === 'lone-surrogate' ? LONE_SURROGATE_RULE : CONTROL_CHARACTER_RULE}`,
  );
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
