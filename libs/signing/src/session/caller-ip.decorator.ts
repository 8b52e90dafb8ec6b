import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';

/**
 * The caller's IP for the rules of contract §11: the TCP peer address, or the client address of
 * X-Forwarded-For when TRUST_PROXY is on (Express's `trust proxy`, set from the config). IPv4-mapped
 * IPv6 addresses are read as IPv4, so 127.0.0.1 is 127.0.0.1 however it arrived.
 */
export const CallerIp = createParamDecorator((_: unknown, context: ExecutionContext): string => {
  const ip = context.switchToHttp().getRequest<Request>().ip ?? '';
  return ip.startsWith('::ffff:') ? ip.slice('::ffff:'.length) : ip;
});
