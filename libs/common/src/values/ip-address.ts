import { isIP } from 'node:net';

/** An IPv4 or IPv6 address as sent by a client (PSU-IP-Address, end_user_ip; bank §2.1, §4). */
export function isIpAddress(text: unknown): text is string {
  return typeof text === 'string' && isIP(text.trim()) !== 0 && text.trim() === text;
}
