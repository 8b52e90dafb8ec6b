import { createCipheriv, createDecipheriv, createHash, createHmac, createSecretKey, hkdfSync, type KeyObject, randomBytes } from 'node:crypto';
import { ValidationFailed } from '../errors/domain-error';

/** The request header (contract §15). */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
/** The response header of a replayed answer (contract §15). */
export const IDEMPOTENT_REPLAYED_HEADER = 'Idempotent-Replayed';
/** 1–255 visible ASCII characters (contract §15). */
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
export const IDEMPOTENCY_KEY_RULE = 'must be 1 to 255 visible ASCII characters';

/**
 * The Idempotency-Key of a request: undefined without the header; 400 VALIDATION_FAILED naming the
 * header when it is not 1–255 visible ASCII characters (an empty value, a space, a non-ASCII letter).
 */
export function readIdempotencyKey(value: string | string[] | undefined): string | undefined {
  if (value === undefined) return undefined;
  const key = Array.isArray(value) ? value.join(', ') : value;
  if (!KEY_PATTERN.test(key)) throw new ValidationFailed(`${IDEMPOTENCY_KEY_HEADER} ${IDEMPOTENCY_KEY_RULE}.`);
  return key;
}

/**
 * JSON with every object's keys sorted, so two bodies equal after parsing write the same text; a
 * member that is null is left out like an absent one (contract §2: null for an optional field means
 * absent, and a required one is refused before the key is looked at).
 */
export function canonicalJson(value: unknown): string {
  if (value === undefined) return 'null';
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, inner]) => inner !== undefined && inner !== null)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([key, inner]) => `${JSON.stringify(key)}:${canonicalJson(inner)}`).join(',')}}`;
}

/** What identifies the request a key was first sent with (contract §15). */
export interface RequestFingerprint {
  method: string;
  /** The path as sent, sandbox prefix and query included. */
  path: string;
  /** The parsed body. */
  body: unknown;
  sandboxUser: string | undefined;
}

/** An answer as kept: status, the headers a client needs, the body bytes. */
export interface KeptAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

const AES = 'aes-256-gcm';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * The secrets of one (scope, caller, key): the row's lookup (SHA-256 of all three), and keys derived
 * from the Idempotency-Key value by HKDF for the request's fingerprint (HMAC) and the kept answer
 * (AES-256-GCM). The database holds neither the key nor anything that replays without it.
 */
export class IdempotencySecrets {
  readonly lookup: Buffer;
  // KeyObjects: on Node 24 a Buffer key costs HMAC and AES ~15 µs a call more than a KeyObject.
  private readonly answerKey: KeyObject;
  private readonly fingerprintKey: KeyObject;

  /** `scope`: the sandbox id, or '' for the service's own records; `caller`: who sent it. */
  constructor(scope: string, caller: string, key: string) {
    const owner = `${scope}\u0000${caller}`;
    this.lookup = createHash('sha256').update(`idempotency-lookup\u0000${owner}\u0000${key}`).digest();
    this.answerKey = createSecretKey(Buffer.from(hkdfSync('sha256', key, owner, 'idempotency-answer', 32)));
    this.fingerprintKey = createSecretKey(Buffer.from(hkdfSync('sha256', key, owner, 'idempotency-fingerprint', 32)));
  }

  fingerprint(request: RequestFingerprint): Buffer {
    const text = canonicalJson([request.method.toUpperCase(), request.path, request.body ?? null, request.sandboxUser ?? null]);
    return createHmac('sha256', this.fingerprintKey).update(text).digest();
  }

  seal(answer: KeptAnswer): Buffer {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv(AES, this.answerKey, iv);
    const clear = Buffer.from(JSON.stringify({ status: answer.status, headers: answer.headers, body: answer.body.toString('base64') }), 'utf8');
    const sealed = Buffer.concat([cipher.update(clear), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), sealed]);
  }

  open(stored: Buffer): KeptAnswer {
    const decipher = createDecipheriv(AES, this.answerKey, stored.subarray(0, IV_BYTES));
    decipher.setAuthTag(stored.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    const clear = Buffer.concat([decipher.update(stored.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
    const parsed = JSON.parse(clear.toString('utf8')) as { status: number; headers: Record<string, string>; body: string };
    return { status: parsed.status, headers: parsed.headers, body: Buffer.from(parsed.body, 'base64') };
  }
}
