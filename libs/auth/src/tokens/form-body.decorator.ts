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

/**
 * A token form's parameter, present once with a non-empty value, trimmed; else invalid_request
 * saying which (RFC 6749 §3.2: a parameter is sent at most once).
 */
export function formParameter(form: Record<string, unknown>, name: string): string {
  const value = form[name];
  if (Array.isArray(value)) throw invalidRequest(`The form parameter ${name} is sent more than once; send it once (RFC 6749 §3.2).`);
  if (typeof value !== 'string' || value.trim() === '') throw invalidRequest(`The form parameter ${name} is required.`);
  return value.trim();
}
