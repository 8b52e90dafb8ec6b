import { leadingValues, MAX_BODY_DEPTH } from '../http/json-depth';
import {
  BASE64_CERTIFICATE_IN_TEXT,
  type CertificateDescriber,
  isSecretName,
  REDACTED,
  redactHeaders,
  redactJson,
  SECRET_NAME_FRAGMENT,
  type NameKind,
} from '../redaction/redaction';

export type { CertificateDescriber, CertificateSummary } from '../redaction/redaction';

/**
 * The journal's side of the one redaction (libs/common/src/redaction, contract §14): what an entry
 * keeps of a request's headers, query and bodies. The rules are the redaction module's; here are
 * the body's size and depth limits, and the fast path of answers that hold no secret.
 */

/** What a secret becomes in a journal entry (contract §14), as in the logs. */
export const JOURNAL_REDACTED = REDACTED;
/** A body larger than this as it was sent (UTF-8 bytes) is kept as a string of its first 4 KB (contract §14). */
export const JOURNAL_BODY_LIMIT_BYTES = 4096;
/** Values of a large body redacted for its entry: each writes a byte or more, so they hold its first 4 KB. */
const LEADING_VALUES = JOURNAL_BODY_LIMIT_BYTES + 1;
/**
 * Levels of nesting a recorded JSON value keeps: a request body deeper is refused (MAX_BODY_DEPTH), and
 * its entry shows it cut here, with body_truncated. The redactor's recursion never goes further, so
 * any depth can be recorded.
 */
export const JOURNAL_DEPTH_LIMIT = MAX_BODY_DEPTH;

const FORM = 'application/x-www-form-urlencoded';

/** A parsed value as the entry keeps it: a body's fields, or a query's or a form's parameters. */
function redactJsonValue(value: unknown, describe: CertificateDescriber, kind: NameKind): { redacted: unknown; cut: boolean } {
  return redactJson(value, { describe, kind, depthLimit: JOURNAL_DEPTH_LIMIT });
}

/** Request headers as the journal keeps them: the redaction module's header rule. */
export { redactHeaders };

/** Query parameters (as express parsed them) with secret ones redacted, by the parameter names. */
export function redactQuery(query: Record<string, unknown>, describe: CertificateDescriber): Record<string, unknown> {
  return redactJsonValue(query, describe, 'parameter').redacted as Record<string, unknown>;
}

/**
 * A request or response body as the journal keeps it, as the JSON members it adds to its entry's
 * `request` or `response`: none, `"body":…`, or `"body":…,"body_truncated":true`. JSON and form
 * bodies are parsed and redacted (a form by the parameter list, as at the token endpoints), anything
 * else is described by type and size only (an HTML page may embed secrets). A body over 4 KB as it
 * was sent (`sentBytes`: a request's Content-Length; else the size of the text, or of the parsed
 * value's JSON), or nested deeper than JOURNAL_DEPTH_LIMIT, is kept as the first 4 KB of its
 * redacted JSON, a string (contract §14): redaction changes no body's fate. Text, because that is
 * what the writer stores: the body is serialized once.
 */
export function recordedBody(body: unknown, contentType: string | undefined, describe: CertificateDescriber, sentBytes?: number): string {
  if (body === undefined || body === null || body === '') return '';
  const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
  const text = Buffer.isBuffer(body) ? body.toString('utf8') : body;
  let redaction: { redacted: unknown; cut: boolean };
  // Of a large parsed body only its first values can reach the 4 KB kept: the rest is not walked (contract §2, bounded work).
  if (typeof text !== 'string') redaction = redactJsonValue(sentBytes === undefined || sentBytes > LEADING_VALUES ? leadingValues(text, LEADING_VALUES) : text, describe, type === FORM ? 'parameter' : 'field');
  else if (type === FORM) redaction = redactJsonValue(Object.fromEntries(new URLSearchParams(text)), describe, 'parameter');
  else if (type === 'application/json' || type.endsWith('+json')) redaction = parsedJson(text, describe);
  else return `"body":${JSON.stringify(`[${type || 'no content type'}, ${Buffer.byteLength(text)} bytes]`)}`;
  if (redaction.cut) return truncated(JSON.stringify(redaction.redacted));
  return limited(JSON.stringify(redaction.redacted), sentBytes ?? sizeAsSent(text));
}

/**
 * The recorded body members of a JSON text that JSON.stringify wrote (an answer's `res.json`), when
 * a scan of the text shows that it holds no secret: no PEM block, no parameter (`=` or `%3D`), no member
 * named as a secret field (no fragment of such a name at all, or else none of its member names is
 * one), and it is within the size limit. JSON.stringify escapes no letter, digit, `-` or `_`, so
 * every such name appears in the text as the name itself. Undefined: the text needs recordedBody.
 * Most answers pass (an eid status with its `hint_code`, a problem with its `reason.code` too), and
 * skip the parse, copy and second serialization.
 */
export function recordedStringifiedJson(text: string): string | undefined {
  if (text.length > JOURNAL_BODY_LIMIT_BYTES / 3 && Buffer.byteLength(text, 'utf8') > JOURNAL_BODY_LIMIT_BYTES) return undefined;
  if (text.includes('-----') || text.includes('=') || ENCODED_EQUALS.test(text) || BASE64_CERTIFICATE_IN_TEXT.test(text)) return undefined;
  if (SECRET_NAME_FRAGMENT.test(text) && !namesNoSecret(text)) return undefined;
  return `"body":${text}`;
}

/** A percent-encoded `=`: a parameter inside an encoded URL (the string rule reads it as one). */
const ENCODED_EQUALS = /%3d/i;

/**
 * A member name in JSON.stringify's text without a backslash: a string token right after `{` or `,`
 * and right before `:`. Without backslashes no string holds a quote, so every name is found this way
 * but one that starts with `:` (its opening quote may end a match that starts in the string before
 * it), and no secret field's name does.
 */
const MEMBER_NAME = /[{,]"([^"]*)":/g;

/**
 * Whether no member of the text is a secret field: the text holds a fragment of a secret name (a
 * `hint_code`, a problem's `reason.code`), and its names tell whether one is a secret's. A text with
 * a backslash is not read this way (an escape could hide a name).
 */
function namesNoSecret(text: string): boolean {
  if (text.includes('\\')) return false;
  for (const [, name] of text.matchAll(MEMBER_NAME)) if (isSecretName(name, 'field')) return false;
  return true;
}

function parsedJson(text: string, describe: CertificateDescriber): { redacted: unknown; cut: boolean } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Not JSON after all: nothing of it can be shown safely.
    return { redacted: `[unparsable JSON, ${Buffer.byteLength(text)} bytes]`, cut: false };
  }
  return redactJsonValue(parsed, describe, 'field');
}

/** A body's size when nothing declared it (an answer's text; a chunked request): its text's, or its parsed value's JSON. */
function sizeAsSent(body: unknown): number {
  if (typeof body === 'string') return Buffer.byteLength(body, 'utf8');
  try {
    return Buffer.byteLength(JSON.stringify(body) ?? '', 'utf8');
  } catch {
    // Too deep to serialize (never, within JOURNAL_DEPTH_LIMIT): certainly not kept whole.
    return Infinity;
  }
}

/** The redacted JSON as the entry keeps it: whole when the body was within the limit as sent, else its first 4 KB. */
function limited(serialized: string, sentBytes: number): string {
  return sentBytes <= JOURNAL_BODY_LIMIT_BYTES ? `"body":${serialized}` : truncated(serialized);
}

/** The first 4 KB of a redacted JSON text, as a string, with body_truncated. */
function truncated(serialized: string): string {
  // Measured without a copy: a redacted body is mostly far under the limit.
  if (Buffer.byteLength(serialized, 'utf8') <= JOURNAL_BODY_LIMIT_BYTES) return `"body":${JSON.stringify(serialized)},"body_truncated":true`;
  const bytes = Buffer.from(serialized, 'utf8');
  // Cut on a character boundary: a partial UTF-8 sequence at the end is dropped, not mangled.
  const head = new TextDecoder('utf-8', { fatal: false }).decode(bytes.subarray(0, JOURNAL_BODY_LIMIT_BYTES)).replace(/\uFFFD+$/, '');
  return `"body":${JSON.stringify(head)},"body_truncated":true`;
}
