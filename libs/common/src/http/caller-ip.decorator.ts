import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';

/**
 * The caller's IP (the rules of contract §11, the self-service rate limit of §13): the TCP peer
 * address, or the client address of X-Forwarded-For when TRUST_PROXY is on (Express's `trust proxy`,
 * set from the config). IPv4-mapped IPv6 addresses are read as IPv4, so 127.0.0.1 is 127.0.0.1
 * however it arrived.
 */
export function callerIpOf(request: Request): string {
  const ip = request.ip ?? '';
  return ip.startsWith('::ffff:') ? ip.slice('::ffff:'.length) : ip;
}

export const CallerIp = createParamDecorator((_: unknown, context: ExecutionContext): string => callerIpOf(context.switchToHttp().getRequest<Request>()));
