import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { DomainError, problemBody, requestPath, toProblem } from '@app/common';
import { OAuthError, type OAuthErrorCode } from './oauth-error';

/** How the token endpoints name the shared kernel's failures (contract §2 table). */
const OAUTH_CODE_OF: Partial<Record<string, OAuthErrorCode>> = {
  UNAUTHORIZED: 'invalid_client',
  VALIDATION_FAILED: 'invalid_request',
};

/** Failures that stay problem+json even on the token endpoints (contract §2). */
const PROBLEM_CODES = new Set(['PAYLOAD_TOO_LARGE', 'PLANNED_DOWNTIME', 'VERSION_WITHDRAWN']);

/**
 * Bound to the two OAuth token controllers: every error they produce is RFC 6749 §5.2
 * `{ error, error_description }` (contract §2).
 */
@Catch()
export class OAuthErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('OAuthError');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<Request>();
    const response = http.getResponse<Response>();
    if (exception instanceof DomainError && PROBLEM_CODES.has(exception.code)) {
      const problem = toProblem(exception);
      response.status(problem.status).set(problem.headers).type('application/problem+json').send(JSON.stringify(problemBody(problem, requestPath(request))));
      return;
    }
    const { status, error, description } = this.describe(exception);
    if (status === 401) response.set('WWW-Authenticate', 'Bearer');
    response.status(status).set({ 'Cache-Control': 'no-store', Pragma: 'no-cache' }).json({ error, error_description: description });
  }

  private describe(exception: unknown): { status: number; error: OAuthErrorCode; description: string } {
    if (exception instanceof OAuthError) return { status: exception.status, error: exception.error, description: exception.description };
    const problem = toProblem(exception);
    const error = OAUTH_CODE_OF[problem.code];
    if (error) return { status: error === 'invalid_client' ? 401 : 400, error, description: problem.message };
    this.logger.error({ err: exception }, 'unhandled error on a token endpoint');
    return { status: 500, error: 'server_error', description: 'An unexpected error occurred. It has been logged.' };
  }
}
