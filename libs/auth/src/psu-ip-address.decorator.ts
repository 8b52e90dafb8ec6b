import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { isIpAddress, ValidationFailed } from '@app/common';

/**
 * The mandatory `PSU-IP-Address` header of every PSD2 authentication-flow call (bank §4): an IPv4 or
 * IPv6 address, else 400 naming the header (invalid_request on the token endpoint).
 */
export const PsuIpAddress = createParamDecorator((_: unknown, context: ExecutionContext): string => {
  const value = context.switchToHttp().getRequest<Request>().headers['psu-ip-address'];
  if (!isIpAddress(value)) {
    throw new ValidationFailed(
      value === undefined ? 'The PSU-IP-Address header is required (the PSU\'s IPv4 or IPv6 address)' : `PSU-IP-Address must be an IPv4 or IPv6 address (got ${JSON.stringify(value)})`,
    );
  }
  return value;
});
