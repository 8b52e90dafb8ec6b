import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import type { Request } from 'express';
import { ValidationFailed } from '../errors/domain-error';
import { isIpAddress } from '../values/ip-address';
import { hasBody } from './request-body';
import { CONTROL_CHARACTER_RULE, hasControlCharacter } from '../values/text-input';

/**
 * The request headers routes read as text (contract §2: "headers we read"). Node's HTTP parser
 * already refuses every control character in a header value but HTAB, so HTAB is the one that can
 * reach us. Add a header here when a route starts reading one. `Authorization` is checked where it
 * is read (BearerAuthenticator); `X-Request-Id` is replaced when malformed, never refused.
 */
export const TEXT_HEADERS = ['X-Sandbox-User', 'PSU-IP-Address', 'X-PSD2-CLIENT-TEST-CERT'] as const;
const TEXT_HEADER_KEYS = TEXT_HEADERS.map((name) => [name, name.toLowerCase()] as const);
const JSON_TYPES = ['application/json', 'application/*+json'];

/**
 * The header rules of contract §2 that hold on every route, as 400 VALIDATION_FAILED naming the
 * header: no control characters in a header the service reads; `PSU-IP-Address`, wherever it is
 * sent, an IPv4 or IPv6 address (the PSD2 routes that require it say so with `PsuIpAddressRequired`);
 * and a body sent to a route that takes JSON is JSON by its `Content-Type` ("all bodies are JSON
 * unless stated", bank §4: a form or text body is refused rather than read as something else).
 * A global guard registered after AccessGuard, so it runs after the credentials and before the
 * route's own checks and the pipes (contract §1 order). A guard rather than an interceptor: a route
 * with no interceptor skips Nest's observable pipeline (issue 19).
 */
@Injectable()
export class HeaderInputGuard implements CanActivate {
  /** Whether each handler takes a `@Body()`, read once from its route metadata. */
  private readonly takesJsonBody = new WeakMap<object, boolean>();

  canActivate(context: ExecutionContext): boolean {
    if (context.getType() !== 'http') return true;
    const request = context.switchToHttp().getRequest<Request>();
    const headers = request.headers;
    for (const [name, key] of TEXT_HEADER_KEYS) {
      const value = headers[key];
      if (value === undefined) continue;
      if (Array.isArray(value) ? value.some(hasControlCharacter) : hasControlCharacter(value)) throw new ValidationFailed(`${name} ${CONTROL_CHARACTER_RULE}`);
    }
    const psuIpAddress = headers['psu-ip-address'];
    if (psuIpAddress !== undefined && !isIpAddress(psuIpAddress)) {
      throw new ValidationFailed(`PSU-IP-Address must be an IPv4 or IPv6 address (got ${JSON.stringify(psuIpAddress)})`);
    }
    if (hasBody(request) && !request.is(JSON_TYPES) && this.takesBody(context)) {
      const sent = headers['content-type'];
      throw new ValidationFailed(`Content-Type: this route takes a JSON body, sent as application/json (got ${sent === undefined ? 'no Content-Type' : JSON.stringify(sent)})`);
    }
    return true;
  }

  private takesBody(context: ExecutionContext): boolean {
    const handler = context.getHandler();
    let takes = this.takesJsonBody.get(handler);
    if (takes === undefined) {
      const params = (Reflect.getMetadata(ROUTE_ARGS_METADATA, context.getClass(), handler.name) ?? {}) as Record<string, unknown>;
      takes = Object.keys(params).some((key) => key.split(':')[0] === String(RouteParamtypes.BODY));
      this.takesJsonBody.set(handler, takes);
    }
    return takes;
  }
}
