import { ApiProperty, ApiResponse } from '@nestjs/swagger';
import { STATUS_CODES } from 'node:http';
import { ERROR_CATALOGUE, ErrorCode } from '../errors/domain-error';
import { CODE_OF_STATUS } from '../errors/problem-details.filter';

export class ProblemReasonDto {
  @ApiProperty({ enum: Object.keys(ERROR_CATALOGUE), example: 'VALIDATION_FAILED' })
  code: string;

  @ApiProperty({ example: 'name must be a string' })
  message: string;
}

/** Every error outside the OAuth token endpoints (bank §2.8, contract §2). */
export class ProblemDto {
  @ApiProperty({ enum: ['about:blank'] })
  type: 'about:blank';

  @ApiProperty({ description: 'The HTTP reason phrase', example: 'Bad Request' })
  title: string;

  @ApiProperty({ type: 'integer', example: 400 })
  status: number;

  @ApiProperty({ description: 'The request path', example: '/admin/users/191212121212' })
  instance: string;

  @ApiProperty({ type: ProblemReasonDto })
  reason: ProblemReasonDto;
}

export interface ProblemExample {
  status: number;
  code?: ErrorCode;
  description?: string;
  message?: string;
  /** Other media types the same failure may be answered in (e.g. the eid page's text/html). */
  alsoAs?: Record<string, { schema: { type: 'string' } }>;
}

/** The problems documented on a class or method so far, by status, so that later ones join them. */
const PROBLEMS_OF_TARGET = Symbol('documented problems');
type ProblemsByStatus = ReadonlyMap<number, readonly ProblemExample[]>;

/**
 * Documents the problem responses of a route as application/problem+json, one per status, each
 * with an example body: `@ApiProblems(400, 404)` or `@ApiProblems({ status: 409, code: … })`.
 * Problems of one status given on one class or method, here or by another `@ApiProblems`, join in
 * one response with an example per code (a 503 PLANNED_DOWNTIME or CONCURRENT_CHANGES), since a
 * response is keyed by its status.
 */
export function ApiProblems(...problems: Array<number | ProblemExample>): ClassDecorator & MethodDecorator {
  return (target: object, key?: string | symbol, descriptor?: PropertyDescriptor) => {
    const holder: object = descriptor ? (descriptor.value as object) : target;
    const documented = new Map(documentedProblems(holder));
    const touched = new Set<number>();
    for (const problem of problems) {
      const p = typeof problem === 'number' ? { status: problem } : problem;
      const known = documented.get(p.status) ?? [];
      const code = codeOf(p);
      if (!known.some((k) => codeOf(k) === code)) documented.set(p.status, [...known, p]);
      touched.add(p.status);
    }
    Reflect.defineMetadata(PROBLEMS_OF_TARGET, documented, holder);
    for (const status of touched) {
      const response = problemResponse(status, documented.get(status) ?? []);
      if (descriptor) response(target, key!, descriptor);
      else response(target as new (...args: never[]) => unknown);
    }
  };
}

/** The problems `@ApiProblems` documented on a class or a route's method, by status. */
export function documentedProblems(holder: object): ProblemsByStatus {
  return (Reflect.getMetadata(PROBLEMS_OF_TARGET, holder) as ProblemsByStatus | undefined) ?? new Map();
}

function codeOf(problem: ProblemExample): ErrorCode {
  return problem.code ?? CODE_OF_STATUS[problem.status] ?? 'INTERNAL_ERROR';
}

function problemResponse(status: number, alternatives: readonly ProblemExample[]) {
  const title = STATUS_CODES[status] ?? 'Error';
  const examples = alternatives.map((p) => {
    const code = codeOf(p);
    const value = {
      type: 'about:blank',
      title,
      status,
      instance: '/path/of/the/request',
      reason: { code, message: p.message ?? `${title}: see reason.code` },
    };
    return { code, description: p.description ?? `${title} (${code})`, value };
  });
  const schema = { $ref: '#/components/schemas/ProblemDto' };
  const problemJson =
    examples.length === 1
      ? { schema, example: examples[0].value }
      : { schema, examples: Object.fromEntries(examples.map((e) => [e.code, { summary: e.description, value: e.value }])) };
  return ApiResponse({
    status,
    description: examples.length === 1 ? examples[0].description : examples.map((e) => `${e.code}: ${e.description}`).join('; or '),
    content: { 'application/problem+json': problemJson, ...alternatives.reduce((all, p) => ({ ...all, ...p.alsoAs }), {}) },
  });
}

/** 401 and 403 of every admin route (contract §3). */
export const ADMIN_PROBLEMS: readonly ProblemExample[] = [
  { status: 401, description: 'No Authorization: Bearer <ADMIN_API_KEY>, or a wrong key' },
  { status: 403, description: 'The admin API is closed: the service was started without ADMIN_API_KEY' },
];
