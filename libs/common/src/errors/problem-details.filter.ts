import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { STATUS_CODES } from 'node:http';
import { DomainError, DomainErrorKind, ErrorCode } from './domain-error';

/** The only place where a problem's meaning becomes an HTTP status. */
export const STATUS_OF_KIND: Record<DomainErrorKind, number> = {
  invalid_input: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  invalid_state: 409,
  gone: 410,
  payload_too_large: 413,
  too_many_requests: 429,
  internal: 500,
  not_implemented: 501,
  unavailable: 503,
};

/** Codes for Nest's own HttpExceptions (unknown route, body parser, passport). */
const CODE_OF_STATUS: Partial<Record<number, ErrorCode>> = {
  400: 'VALIDATION_FAILED',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
};

export interface ProblemBody {
  type: 'about:blank';
  title: string;
  status: number;
  instance: string;
  reason: { code: string; message: string };
}

export interface Problem {
  status: number;
  code: string;
  message: string;
  headers: Readonly<Record<string, string>>;
}

/** Maps anything thrown to the problem it stands for; unknown errors become 500 INTERNAL_ERROR. */
export function toProblem(exception: unknown): Problem {
  if (exception instanceof DomainError) {
    return { status: STATUS_OF_KIND[exception.kind], code: exception.code, message: exception.message, headers: exception.headers };
  }
  if (exception instanceof HttpException && exception.getStatus() < 500) {
    const status = exception.getStatus();
    return { status, code: CODE_OF_STATUS[status] ?? 'VALIDATION_FAILED', message: httpExceptionMessage(exception), headers: {} };
  }
  return { status: 500, code: 'INTERNAL_ERROR', message: 'An unexpected error occurred. It has been logged.', headers: {} };
}

function httpExceptionMessage(exception: HttpException): string {
  const status = exception.getStatus();
  if (status === HttpStatus.PAYLOAD_TOO_LARGE) return 'The request body is larger than the limit of 1 MB.';
  if (status === HttpStatus.NOT_FOUND) return 'No route matches this method and path.';
  if (exception.cause instanceof SyntaxError) return `The request body is not valid JSON: ${exception.cause.message}`;
  const response = exception.getResponse();
  const message = typeof response === 'object' && response !== null && 'message' in response ? response.message : response;
  return Array.isArray(message) ? message.join('; ') : String(message);
}

/** The path as the client sent it (an alias of a retired path is rewritten to its successor on the way). */
export function requestPath(request: Request): string {
  return (request.originalUrl ?? request.url).split('?')[0];
}

export function problemBody(problem: Problem, instance: string): ProblemBody {
  return {
    type: 'about:blank',
    title: STATUS_CODES[problem.status] ?? 'Error',
    status: problem.status,
    instance,
    reason: { code: problem.code, message: problem.message },
  };
}

/**
 * Renders every error outside the OAuth token endpoints as application/problem+json in the shape of
 * bank §2.8 (contract §2).
 */
@Catch()
export class ProblemDetailsFilter implements ExceptionFilter {
  private readonly logger = new Logger('ProblemDetails');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<Request>();
    const response = http.getResponse<Response>();
    const problem = toProblem(exception);
    if (problem.status >= 500 && !(exception instanceof DomainError)) {
      this.logger.error({ err: exception, path: requestPath(request) }, 'unhandled error');
    }
    if (response.headersSent) return;
    response
      .status(problem.status)
      .set(problem.headers)
      .type('application/problem+json')
      .send(JSON.stringify(problemBody(problem, requestPath(request))));
  }
}
