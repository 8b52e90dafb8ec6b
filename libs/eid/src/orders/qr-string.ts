import { createHmac, createSecretKey, timingSafeEqual } from 'node:crypto';

/**
 * Dynamic QR strings of contract §4: `eid.<qr_start_token>.<t>.<code>`, t the whole seconds since the
 * order started (sandbox clock), code the lowercase hex HMAC-SHA256 of the decimal text of t keyed
 * with the order's qr_start_secret.
 */
export function qrString(qrStartToken: string, qrStartSecret: string, startedAt: Date, now: Date): string {
  const t = Math.max(0, Math.floor((now.getTime() - startedAt.getTime()) / 1000));
  return `eid.${qrStartToken}.${t}.${qrCode(qrStartSecret, t)}`;
}

function qrCode(secret: string, t: number): string {
  // A KeyObject, not the Buffer: on Node 24 a Buffer key costs each HMAC ~15 µs more (issue 19: every
  // status poll of a QR order computes one).
  return createHmac('sha256', createSecretKey(Buffer.from(secret, 'hex'))).update(String(t)).digest('hex');
}

export interface ParsedQrString {
  qrStartToken: string;
  t: number;
  code: string;
}

const QR_STRING = /^eid\.([0-9a-f-]{36})\.(\d{1,9})\.([0-9a-f]{64})$/;

export function parseQrString(text: string): ParsedQrString | null {
  const match = QR_STRING.exec(text);
  return match ? { qrStartToken: match[1], t: Number(match[2]), code: match[3] } : null;
}

/** The code was made with this secret (constant-time comparison). */
export function qrCodeMatches(parsed: ParsedQrString, secret: string): boolean {
  return timingSafeEqual(Buffer.from(parsed.code, 'hex'), Buffer.from(qrCode(secret, parsed.t), 'hex'));
}
