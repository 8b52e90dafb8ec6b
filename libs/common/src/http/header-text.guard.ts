import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { ValidationFailed } from '../errors/domain-error';
import { CONTROL_CHARACTER_RULE, hasControlCharacter } from '../values/text-input';

/**
 * The request headers routes read as text (contract §2: "headers we read"). Node's HTTP parser
 * already refuses every control character in a header value but HTAB, so HTAB is the one that can
 * reach us. Add a header here when a route starts reading one. `Authorization` is checked where it
 * is read (BearerAuthenticator); `X-Request-Id` is replaced when malformed, never refused.
 */
export const TEXT_HEADERS = ['X-Sandbox-User', 'PSU-IP-Address', 'X-PSD2-CLIENT-TEST-CERT'] as const;
const TEXT_HEADER_KEYS = TEXT_HEADERS.map((name) => [name, name.toLowerCase()] as const);

/**
 * 400 VALIDATION_FAILED naming the header when a header the service reads carries a control
 * character. A global guard registered after AccessGuard, so it runs after the credentials and
 * before the route's own checks and the pipes (contract §1 order). A guard rather than an
 * interceptor: a route with no interceptor skips Nest's observable pipeline (issue 19).
 */
@Injectable()
export class HeaderTextGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    if (context.getType() !== 'http') return true;
    const headers = context.switchToHttp().getRequest<Request>().headers;
    for (const [name, key] of TEXT_HEADER_KEYS) {
      const value = headers[key];
      if (value === undefined) continue;
      if (Array.isArray(value) ? value.some(hasControlCharacter) : hasControlCharacter(value)) throw new ValidationFailed(`${name} ${CONTROL_CHARACTER_RULE}`);
    }
    return true;
  }
}
