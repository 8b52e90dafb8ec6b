import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { isIPv4, isIPv6 } from 'node:net';

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

/** The one caller of every address that is no IP address (a proxy's odd X-Forwarded-For): sharing one count, it cannot multiply it. */
export const UNREADABLE_CALLER = 'unreadable-address';

/** Every loopback address (127.0.0.0/8, ::1) is the service's own host: one caller, by its usual name. */
const LOOPBACK_CALLER = '127.0.0.1';

/**
 * Who a self-service creation counts against (contract §13 Self-service): an IPv4 address, or the
 * IPv6 /64 network (`2001:db8:1:2::/64`) — one host holds a whole /64, so one address of it would
 * let it multiply its share — where an IPv4-mapped IPv6 address (`::ffff:192.0.2.1`, any spelling)
 * is its IPv4 address. For the same reason every loopback address (127.0.0.0/8 and ::1, the one
 * host the service runs on) is one caller, 127.0.0.1.
 */
export function selfServiceCallerOf(ip: string): string {
  const address = ip.replace(/%.*$/, '');
  if (isIPv4(address)) return ipv4Caller(address);
  if (!isIPv6(address)) return UNREADABLE_CALLER;
  const groups = ipv6Groups(address);
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    return ipv4Caller([groups[6] >> 8, groups[6] & 0xff, groups[7] >> 8, groups[7] & 0xff].join('.'));
  }
  if (groups.slice(0, 7).every((group) => group === 0) && groups[7] === 1) return LOOPBACK_CALLER;
  return `${groups.slice(0, 4).map((group) => group.toString(16)).join(':')}::/64`;
}

const ipv4Caller = (address: string): string => (address.startsWith('127.') ? LOOPBACK_CALLER : address);

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, a dotted IPv4 tail as two groups). */
function ipv6Groups(address: string): number[] {
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(address);
  const text = dotted ? `${address.slice(0, dotted.index)}${((+dotted[1] << 8) | +dotted[2]).toString(16)}:${((+dotted[3] << 8) | +dotted[4]).toString(16)}` : address;
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const parse = (part: string | undefined) => (part ? part.split(':').map((group) => parseInt(group, 16)) : []);
  const left = parse(head);
  const right = parse(tail);
  return tail === undefined ? left : [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
}
