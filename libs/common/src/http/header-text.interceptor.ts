import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Request } from 'express';
import type { Observable } from 'rxjs';
import { ValidationFailed } from '../errors/domain-error';
import { CONTROL_CHARACTER_RULE, hasControlCharacter } from '../values/text-input';

/**
 * The request headers routes read as text (contract §2: "headers we read"). Node's HTTP parser
 * already refuses every control character in a header value but HTAB, so HTAB is the one that can
 * reach us. Add a header here when a route starts reading one. `Authorization` is checked where it
 * is read (BearerAuthenticator); `X-Request-Id` is replaced when malformed, never refused.
 */
export const TEXT_HEADERS = ['X-Sandbox-User', 'PSU-IP-Address', 'X-PSD2-CLIENT-TEST-CERT'] as const;

/**
 * 400 VALIDATION_FAILED naming the header when a header the service reads carries a control
 * character. An interceptor, so it runs after the credentials and before the pipes (contract §1 order).
 */
@Injectable()
export class HeaderTextInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() === 'http') {
      const headers = context.switchToHttp().getRequest<Request>().headers;
      for (const name of TEXT_HEADERS) {
        const value = headers[name.toLowerCase()];
        const values = Array.isArray(value) ? value : value === undefined ? [] : [value];
        if (values.some(hasControlCharacter)) throw new ValidationFailed(`${name} ${CONTROL_CHARACTER_RULE}`);
      }
    }
    return next.handle();
  }
}
