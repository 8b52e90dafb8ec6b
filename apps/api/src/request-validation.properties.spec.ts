/**
 * Contract §2, "never a 500": property tests of the global validation pipe over EVERY request DTO.
 * The list is not written by hand: every `*.controller.ts` under libs/ and apps/ is imported and each
 * route's `@Body()`, `@Query()`, `@Param()` and custom parameters are read from Nest's route metadata,
 * so a new route or DTO is covered the day it is written. fast-check throws generated strings
 * (control characters, unicode, very long), numbers (exponent forms, NaN, ±Infinity, huge, -0),
 * nulls, arrays, objects and prototype keys at the pipe, starting from each DTO's documented example
 * so that the generated value reaches every field's validators; the pipe must answer a value or a
 * ValidationFailed (400) — never another exception.
 */
import 'reflect-metadata';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type ArgumentMetadata, type Paramtype, ValidationPipe } from '@nestjs/common';
import { getMetadataStorage } from 'class-validator';
import fc from 'fast-check';
import { findTextInputProblem, StrictValidationPipe, ValidationFailed } from '@app/common';

/** Jest runs from the repository root (jest.config.mjs rootDir). */
const ROOT = process.cwd();
const ROUTE_ARGS = '__routeArguments__';
const SWAGGER_PROPERTIES = 'swagger/apiModelPropertiesArray';
const SWAGGER_PROPERTY = 'swagger/apiModelProperties';
/** RouteParamtypes of @nestjs/common: BODY 3, QUERY 4, PARAM 5; custom decorators are keyed by name. */
const PARAM_TYPES: Record<string, Paramtype> = { 3: 'body', 4: 'query', 5: 'param' };

type Dto = new () => object;
interface RouteInput {
  route: string;
  metadata: ArgumentMetadata;
}

function controllerFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' ? [] : controllerFiles(path);
    return name.endsWith('.controller.ts') ? [path] : [];
  });
}

/** Every parameter of every route that the global pipe sees, with the type Nest hands it. */
async function routeInputs(): Promise<RouteInput[]> {
  const inputs: RouteInput[] = [];
  for (const file of [...controllerFiles(join(ROOT, 'libs')), ...controllerFiles(join(ROOT, 'apps'))]) {
    const exports = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    for (const controller of Object.values(exports)) {
      if (typeof controller !== 'function' || Reflect.getMetadata('path', controller) === undefined) continue;
      const prototype = controller.prototype as Record<string, unknown>;
      for (const method of Object.getOwnPropertyNames(prototype)) {
        const args = Reflect.getMetadata(ROUTE_ARGS, controller, method) as Record<string, { index: number; data?: string }> | undefined;
        const types = (Reflect.getMetadata('design:paramtypes', prototype, method) ?? []) as Array<ArgumentMetadata['metatype']>;
        for (const [key, { index, data }] of Object.entries(args ?? {})) {
          const kind = key.split(':')[0];
          const type = PARAM_TYPES[kind] ?? (kind.includes('__customRouteArgs__') ? 'custom' : undefined);
          if (!type) continue;
          inputs.push({ route: `${relative(ROOT, file)} ${controller.name}.${method} ${type}#${index}`, metadata: { type, metatype: types[index], data } });
        }
      }
    }
  }
  return inputs;
}

function isDto(type: unknown): type is Dto {
  return typeof type === 'function' && ![String, Number, Boolean, Object, Array].includes(type as never);
}

/** The fields a DTO declares, from its validators and its OpenAPI properties. */
function fieldsOf(dto: Dto): string[] {
  const validated = getMetadataStorage()
    .getTargetValidationMetadatas(dto, '', true, false)
    .map((m) => m.propertyName);
  const documented = ((Reflect.getMetadata(SWAGGER_PROPERTIES, dto.prototype as object) ?? []) as string[]).map((p) => p.replace(/^:/, ''));
  return [...new Set([...validated, ...documented])];
}

/** A plausible instance from the documented examples (nested DTOs too), the base that values mutate. */
function exampleOf(dto: Dto, depth = 0): Record<string, unknown> {
  const example: Record<string, unknown> = {};
  for (const field of fieldsOf(dto)) {
    const doc = (Reflect.getMetadata(SWAGGER_PROPERTY, dto.prototype as object, field) ?? {}) as Record<string, unknown>;
    // @nestjs/swagger keeps `type: [X]` as `{ type: X, isArray: true }`.
    const nested: unknown = Array.isArray(doc.type) ? doc.type[0] : doc.type;
    const many = doc.isArray === true || Array.isArray(doc.type);
    if (doc.example !== undefined) example[field] = doc.example;
    else if (Array.isArray(doc.enum)) example[field] = doc.enum[0];
    else if (depth < 3 && isDto(nested) && fieldsOf(nested).length) example[field] = many ? [exampleOf(nested, depth + 1)] : exampleOf(nested, depth + 1);
  }
  return example;
}

/** An own property, as JSON.parse makes one (`__proto__` included). */
function withField(target: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  return Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

const controlCharacter = fc.integer({ min: 0, max: 0x1f }).chain((c) => fc.constantFrom(String.fromCharCode(c), String.fromCharCode(0x7f)));
const nastyString = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme' }),
  fc.string({ unit: 'binary' }),
  fc.tuple(fc.string(), controlCharacter, fc.string()).map(([a, c, b]) => a + c + b),
  fc.constantFrom('', ' ', '1e-7', '1E2', 'NaN', 'Infinity', '-0', '0x10', '__proto__', 'null', 'x'.repeat(100_000), '\u{1F600}', '\uD800'),
);
const nastyNumber = fc.oneof(
  fc.double(),
  fc.integer(),
  fc.constantFrom(1e-7, 1e2, 0.1, 100.5, -0, 1e308, Infinity, -Infinity, NaN, 5e-324, 1e21, -1e21, Number.MAX_SAFE_INTEGER + 2, 0.001, 1.005),
);
const prototypeKey = fc.constantFrom('__proto__', 'constructor', 'prototype');
const { nasty } = fc.letrec<{ nasty: unknown }>((tie) => ({
  nasty: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    nastyString,
    nastyNumber,
    fc.constant(null),
    fc.boolean(),
    fc.array(tie('nasty'), { maxLength: 4 }),
    fc
      .array(fc.tuple(fc.oneof(fc.string(), prototypeKey), tie('nasty')), { maxLength: 4 })
      .map((entries) => entries.reduce((o, [k, v]) => withField(o, k, v), {} as Record<string, unknown>)),
  ),
}));

/** A body: the DTO's example with some fields replaced by generated values, dropped, or joined by unknown/prototype keys. */
function bodyFor(dto: Dto): fc.Arbitrary<unknown> {
  const fields = fieldsOf(dto);
  const base = exampleOf(dto);
  const field = fields.length ? fc.constantFrom(...fields) : fc.string();
  const change = fc.oneof(
    fc.tuple(field, nasty).map(([k, v]) => ({ k, v, drop: false })),
    fc.tuple(field, fc.constant(undefined)).map(([k]) => ({ k, v: undefined, drop: true })),
    fc.tuple(fc.oneof(prototypeKey, fc.string()), nasty).map(([k, v]) => ({ k, v, drop: false })),
  );
  return fc.oneof(
    { weight: 8, arbitrary: fc.array(change, { minLength: 1, maxLength: 4 }).map((changes) => {
      const body = structuredClone(base);
      for (const { k, v, drop } of changes) {
        if (drop) delete body[k];
        else withField(body, k, v);
      }
      return body;
    }) },
    { weight: 1, arbitrary: nasty },
  );
}

/** A query: what Express's parser can give, strings and arrays of strings, under the DTO's keys. */
function queryFor(dto: Dto): fc.Arbitrary<unknown> {
  const fields = fieldsOf(dto);
  const base = Object.fromEntries(Object.entries(exampleOf(dto)).map(([k, v]) => [k, String(v)]));
  const value = fc.oneof(nastyString, nastyNumber.map(String), fc.array(nastyString, { maxLength: 3 }));
  const key = fc.oneof(fields.length ? fc.constantFrom(...fields) : fc.string(), prototypeKey, fc.string());
  return fc.array(fc.tuple(key, value), { maxLength: 4 }).map((entries) => {
    const query = Object.assign(Object.create(null) as Record<string, unknown>, base);
    for (const [k, v] of entries) withField(query, k, v);
    return query;
  });
}

const pipe = new StrictValidationPipe();

/** The property: a value or ValidationFailed, nothing else. */
async function answersValueOr400(value: unknown, metadata: ArgumentMetadata): Promise<void> {
  try {
    const result = await pipe.transform(value, metadata);
    if (metadata.type === 'body' && isDto(metadata.metatype)) expect(result).toBeInstanceOf(metadata.metatype);
    // What passes is clean: no control character reaches a service (PostgreSQL refuses U+0000), and
    // no prototype key but in the token form, which ignores unknown parameters (RFC 6749 §3.2).
    if (result !== undefined && typeof result !== 'function') {
      expect(findTextInputProblem(JSON.parse(JSON.stringify(result) ?? 'null'), '', { prototypeKeys: metadata.type !== 'custom' })).toBeNull();
    }
  } catch (error) {
    if (!(error instanceof ValidationFailed)) throw error;
    expect(error.message).not.toBe('');
  }
}

const RUNS = Number(process.env.PROPERTY_RUNS ?? 200);
let inputs: RouteInput[] = [];

beforeAll(async () => {
  inputs = await routeInputs();
});

describe('the validation pipe over every request DTO never answers other than a value or 400 (contract §2: never a 500)', () => {
  it('finds the request DTOs from the controllers (a new route is covered without editing this file)', () => {
    const dtos = new Set(inputs.filter((i) => i.metadata.type !== 'param' && isDto(i.metadata.metatype)).map((i) => (i.metadata.metatype as Dto).name));
    // Known members, so a scan that silently finds nothing fails here.
    for (const name of ['CreateTransferDto', 'CreateRecurringTransferDto', 'CreatePreApprovalDto', 'PutUserDto', 'OpenAccountDto', 'AdvanceClockDto', 'AuthorizeQueryDto', 'EffectiveRateQueryDto']) {
      expect(dtos).toContain(name);
    }
    expect(dtos.size).toBeGreaterThanOrEqual(20);
  });

  it('every body DTO: generated strings, numbers, nulls, arrays, objects and prototype keys are a value or 400', async () => {
    const bodies = inputs.filter((i) => i.metadata.type === 'body');
    expect(bodies.length).toBeGreaterThan(0);
    for (const { route, metadata } of bodies) {
      const arbitrary = isDto(metadata.metatype) ? bodyFor(metadata.metatype) : nasty;
      await fc.assert(fc.asyncProperty(arbitrary, (value) => answersValueOr400(value, metadata)), { numRuns: RUNS, seed: 13, endOnFailure: true, includeErrorInReport: true }).catch((error: Error) => {
        throw new Error(`${route}: ${error.message}`);
      });
    }
  });

  it('every query DTO, path parameter and custom parameter: generated text is a value or 400', async () => {
    for (const { route, metadata } of inputs.filter((i) => i.metadata.type !== 'body')) {
      const arbitrary = metadata.type === 'query' && isDto(metadata.metatype) ? queryFor(metadata.metatype) : metadata.type === 'custom' ? fc.oneof(nasty, nastyString) : nastyString;
      await fc.assert(fc.asyncProperty(arbitrary, (value) => answersValueOr400(value, metadata)), { numRuns: RUNS, seed: 13, endOnFailure: true, includeErrorInReport: true }).catch((error: Error) => {
        throw new Error(`${route}: ${error.message}`);
      });
    }
  });

  it('the reported cases are 400 naming the field: NUL text, 1e-7 money, null for a required field, prototype keys', async () => {
    const body = (name: string) => {
      const found = inputs.find((i) => i.metadata.type === 'body' && (i.metadata.metatype as Dto | undefined)?.name === name);
      if (!found) throw new Error(`no route takes ${name}`);
      return { metadata: found.metadata, example: exampleOf(found.metadata.metatype as Dto) };
    };
    const refused = async (name: string, patch: Record<string, unknown>, field: string) => {
      const { metadata, example } = body(name);
      const value = Object.entries(patch).reduce((o, [k, v]) => withField(o, k, v), { ...example });
      const error = await pipe.transform(value, metadata).then(() => null, (e: unknown) => e);
      expect(error).toBeInstanceOf(ValidationFailed);
      expect((error as Error).message).toContain(field);
    };
    await refused('CreateTransferDto', { statement: 'Hy\u0000ra' }, 'statement');
    await refused('CreateTransferDto', { amount: 1e-7 }, 'amount');
    await refused('CreateTransferDto', { currency: null }, 'currency');
    await refused('CreateTransferDto', { ['__proto__']: { amount: 1 } }, '__proto__');
    await refused('CreateTransferDto', { constructor: 'x' }, 'constructor');
    await refused('OpenAccountDto', { balance: 1e-7 }, 'balance');
    await refused('AdvanceClockDto', { seconds: 1e-7 }, 'seconds');
    await refused('PutUserDto', { name: 'A\u0000' }, 'name');
    await refused('CreatePreApprovalDto', { applicants: [{ personal_number: '19121212121\u0000', yearly_income: 1 }] }, 'applicants.0.personal_number');
    const { metadata, example } = body('CreatePreApprovalDto');
    const accepted = (await pipe.transform({ ...example, unsecured_loan_amount: null }, metadata)) as Record<string, unknown>;
    expect('unsecured_loan_amount' in accepted).toBe(false);
  });
});

/**
 * Nest's pipe with the same options over the whole body at once (class-transformer and
 * class-validator as they come): what the bounded validation of a body must agree with.
 */
class WholeBodyPipe extends StrictValidationPipe {
  protected override validateBody(value: Record<string, unknown>, type: Dto): Promise<unknown> {
    return ValidationPipe.prototype.transform.call(this, value, { type: 'body', metatype: type }) as Promise<unknown>;
  }
}

const wholeBodyPipe = new WholeBodyPipe();

/** The verdict of a pipe: the value it gives, or the message of its 400. */
async function verdictOf(target: StrictValidationPipe, value: unknown, metadata: ArgumentMetadata): Promise<{ value: unknown } | { message: string }> {
  try {
    return { value: await target.transform(value, metadata) };
  } catch (error) {
    if (!(error instanceof ValidationFailed)) throw error;
    return { message: error.message };
  }
}

describe('a body is validated with bounded work, and finds what class-validator finds over the whole body (contract §2, bounded work)', () => {
  it('every body DTO: the same verdict, the same DTO when accepted, the same first problem when refused', async () => {
    for (const { route, metadata } of inputs.filter((i) => i.metadata.type === 'body' && isDto(i.metadata.metatype))) {
      await fc
        .assert(
          fc.asyncProperty(bodyFor(metadata.metatype as Dto), async (value) => {
            const bounded = await verdictOf(pipe, structuredClone(value), metadata);
            const whole = await verdictOf(wholeBodyPipe, structuredClone(value), metadata);
            expect('value' in bounded).toBe('value' in whole);
            if ('value' in bounded && 'value' in whole) {
              expect((bounded.value as object).constructor).toBe((whole.value as object).constructor);
              expect(JSON.stringify(bounded.value)).toBe(JSON.stringify(whole.value));
            } else if ('message' in bounded && 'message' in whole) {
              expect(bounded.message.split('; ')[0]).toBe(whole.message.split('; ')[0]);
            }
          }),
          { numRuns: RUNS, seed: 13, endOnFailure: true, includeErrorInReport: true },
        )
        .catch((error: Error) => {
          throw new Error(`${route}: ${error.message}`);
        });
    }
  });

  it('a fixture of 20 000 objects lets other work run while it is validated, and names 10 problems and counts the rest', async () => {
    const { metadata } = inputs.find((i) => i.metadata.type === 'body' && (i.metadata.metatype as Dto | undefined)?.name === 'SeedFixtureDto')!;
    const fixture = { users: Array.from({ length: 1000 }, () => ({ accounts: Array.from({ length: 19 }, () => ({})) })) };
    let done = false;
    let turns = 0;
    const turn = (): void => {
      turns++;
      if (!done) setImmediate(turn);
    };
    setImmediate(turn);
    const verdict = await verdictOf(pipe, fixture, metadata).finally(() => (done = true));
    // Each user lacks personal_number, name and kyc_completed; each account name, currency and balance.
    expect('message' in verdict && verdict.message).toMatch(/^users\.0\.personal_number is required; .*; … and 59990 more$/);
    expect(turns).toBeGreaterThan(1);
  });

  it('an unknown field is refused by its name, whatever it holds (its value is never read)', async () => {
    const { metadata, example } = ((name: string) => {
      const found = inputs.find((i) => i.metadata.type === 'body' && (i.metadata.metatype as Dto | undefined)?.name === name)!;
      return { metadata: found.metadata, example: exampleOf(found.metadata.metatype as Dto) };
    })('OpenOrderDto');
    const unknown = Object.fromEntries(Array.from({ length: 25 }, (_, i) => [`f${i}`, Array.from({ length: 10_000 }, () => ({}))]));
    const verdict = await verdictOf(pipe, { ...example, ...unknown }, metadata);
    expect(verdict).toEqual({ message: `${Array.from({ length: 10 }, (_, i) => `property f${i} should not exist`).join('; ')}; … and 15 more` });
  });
});
