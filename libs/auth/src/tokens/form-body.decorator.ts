import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { invalidRequest } from './oauth-error';

/** The form-urlencoded body of a token request (RFC 6749 §4); any other body is invalid_request. */
export const FormBody = createParamDecorator((_: unknown, context: ExecutionContext): Record<string, unknown> => {
  const request = context.switchToHttp().getRequest<Request>();
  if (!request.is('application/x-www-form-urlencoded')) {
    throw invalidRequest('The body must be application/x-www-form-urlencoded (RFC 6749 §4).');
  }
  return (request.body ?? {}) as Record<string, unknown>;
});
