import { applyDecorators } from '@nestjs/common';
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

  @ApiProperty({ example: 400 })
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

/**
 * Documents the problem responses of a route as application/problem+json, one per status, each
 * with an example body: `@ApiProblems(400, 404)` or `@ApiProblems({ status: 409, code: … })`.
 */
export function ApiProblems(...problems: Array<number | ProblemExample>) {
  return applyDecorators(
    ...problems.map((problem) => {
      const p = typeof problem === 'number' ? { status: problem } : problem;
      const code = p.code ?? CODE_OF_STATUS[p.status] ?? 'INTERNAL_ERROR';
      const title = STATUS_CODES[p.status] ?? 'Error';
      return ApiResponse({
        status: p.status,
        description: p.description ?? `${title} (${code})`,
        content: {
          'application/problem+json': {
            schema: { $ref: '#/components/schemas/ProblemDto' },
            example: {
              type: 'about:blank',
              title,
              status: p.status,
              instance: '/path/of/the/request',
              reason: { code, message: p.message ?? `${title}: see reason.code` },
            },
          },
          ...p.alsoAs,
        },
      });
    }),
  );
}

/** 401 and 403 of every admin route (contract §3). */
export const ADMIN_PROBLEMS: readonly ProblemExample[] = [
  { status: 401, description: 'No Authorization: Bearer <ADMIN_API_KEY>, or a wrong key' },
  { status: 403, description: 'The admin API is closed: the service was started without ADMIN_API_KEY' },
];
