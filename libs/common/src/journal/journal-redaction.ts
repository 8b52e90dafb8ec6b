import { createHash } from 'node:crypto';
import { SECRET_QUERY_PARAMETERS } from '../logging/log-redaction';

/** What a secret becomes in a journal entry (contract §14). */
export const JOURNAL_REDACTED = '[redacted]';
/** A body larger than this (serialized, UTF-8) is kept as a string of its first 4 KB (contract §14). */
export const JOURNAL_BODY_LIMIT_BYTES = 4096;

/** A certificate as the journal shows it: whose it is and which one, never the certificate itself (contract §14). */
export interface CertificateSummary {
  organization_id: string | null;
  sha256: string;
}

/** Reads a certificate header or field (PEM or base64 DER); null when it is not one. Given by the lib that parses certificates. */
export type CertificateDescriber = (value: string) => CertificateSummary | null;

/** Names normalized so far: bodies repeat the same few (bounded, for the names are the clients'). */
const NORMALIZED = new Map<string, string>();
const NORMALIZED_KEPT = 2000;

/** "accessToken", "access-token" and "ACCESS_TOKEN" are one name. */
function normalized(name: string): string {
  let result = NORMALIZED.get(name);
  if (result === undefined) {
    result = name.toLowerCase().replace(/[-_]/g, '');
    if (NORMALIZED.size < NORMALIZED_KEPT) NORMALIZED.set(name, result);
  }
  return result;
}

/** Form and query parameters whose value is a secret: the log's list (issue 13). */
const SECRET_PARAMETERS = new Set([...SECRET_QUERY_PARAMETERS].map(normalized));

/**
 * JSON fields whose value is a secret (contract §14: tokens, pending codes, autostart tokens, QR
 * strings, partner and admin keys, private keys, PKCS#12 and its password). Not `code` or `key`: in
 * JSON bodies those name reason and hint codes.
 */
const SECRET_FIELDS = new Set(
  [
    'access_token',
    'refresh_token',
    'id_token',
    'token',
    'pending_code',
    'pending_authorization_code',
    'autostart_token',
    'auto_start_token',
    'qr_code',
    'qr_string',
    'qr_start_token',
    'qr_start_secret',
    'api_key',
    'admin_key',
    'admin_api_key',
    'demo_partner_key',
    'client_secret',
    'client_assertion',
    'password',
    'secret',
    'private_key_pem',
    'pkcs12_base64',
    'pkcs12_password',
  ].map(normalized),
);

/**
 * Every secret field's name holds one of these: a text without any, in any case and with `-` or `_`
 * between their letters, names no secret field (checked below, for the list above may grow).
 */
const SECRET_NAME_FRAGMENTS = ['token', 'code', 'key', 'secret', 'password', 'pkcs', 'assertion', 'qr'];
for (const name of SECRET_FIELDS) {
  if (!SECRET_NAME_FRAGMENTS.some((fragment) => name.includes(fragment))) throw new Error(`the secret field ${name} holds none of SECRET_NAME_FRAGMENTS: add one`);
}
/** Unicode case folding (`u`): the Kelvin sign is a "k" to toLowerCase, so to normalized(), too. */
const SECRET_NAME_FRAGMENT = new RegExp(SECRET_NAME_FRAGMENTS.map((fragment) => [...fragment].join('[-_]*')).join('|'), 'iu');

const FORM = 'application/x-www-form-urlencoded';
/** A form (as text, or as the parser's object) is read by both lists: its names are parameters and fields alike. */
const FORM_SECRETS = new Set([...SECRET_PARAMETERS, ...SECRET_FIELDS]);

/** Headers that carry a credential; the certificate header is summarized instead. */
const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key', 'x-admin-key']);
export const CERTIFICATE_HEADERS: ReadonlySet<string> = new Set(['x-psd2-client-test-cert']);

const PRIVATE_KEY = /-----BEGIN [A-Z ]*PRIVATE KEY-----/;
const PEM_CERTIFICATE = /^\s*-----BEGIN CERTIFICATE-----/;
/** A secret query parameter inside a string value (a link, a `bankid:///?autostarttoken=…` URL). */
const SECRET_IN_URL = new RegExp(`([?&](?:${[...SECRET_QUERY_PARAMETERS].map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})=)[^&#\\s"'<>]*`, 'gi');

/** A certificate that the describer cannot read still gets a fingerprint of its bytes. */
function summarize(value: string, describe: CertificateDescriber): CertificateSummary {
  return describe(value) ?? { organization_id: null, sha256: createHash('sha256').update(value).digest('hex') };
}

/** A string value: secrets inside it (a private key, a secret link parameter) go. */
function redactString(value: string, describe: CertificateDescriber): unknown {
  // Most strings hold neither a PEM block nor a parameter: two scans instead of three patterns
  // (every string of every recorded request passes here; issue 19).
  if (value.includes('-----')) {
    if (PRIVATE_KEY.test(value)) return JOURNAL_REDACTED;
    if (PEM_CERTIFICATE.test(value)) return summarize(value, describe);
  }
  return value.includes('=') ? value.replace(SECRET_IN_URL, `$1${encodeURIComponent(JOURNAL_REDACTED)}`) : value;
}

/** A copy of a parsed JSON value with every secret replaced; prototype keys stay plain data. */
export function redactJson(value: unknown, describe: CertificateDescriber, secretNames: ReadonlySet<string> = SECRET_FIELDS): unknown {
  if (typeof value === 'string') return redactString(value, describe);
  if (Array.isArray(value)) return value.map((item) => redactJson(item, describe, secretNames));
  if (value === null || typeof value !== 'object') return value;
  const copy: Record<string, unknown> = {};
  for (const name of Object.keys(value)) {
    const field = (value as Record<string, unknown>)[name];
    const kept = secretNames.has(normalized(name)) && field !== null && field !== undefined ? JOURNAL_REDACTED : redactJson(field, describe, secretNames);
    // Defined, not assigned: a "__proto__" key is data, never the prototype.
    if (name === '__proto__') Object.defineProperty(copy, name, { value: kept, enumerable: true, writable: true, configurable: true });
    else copy[name] = kept;
  }
  return copy;
}

/** Request or response headers as the journal keeps them: names lower-cased, credentials redacted, certificates summarized. */
export function redactHeaders(headers: Record<string, string | string[] | number | undefined>, describe: CertificateDescriber): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const [rawName, rawValue] of Object.entries(headers)) {
    if (rawValue === undefined) continue;
    const name = rawName.toLowerCase();
    const value = Array.isArray(rawValue) ? rawValue.join(', ') : String(rawValue);
    if (CERTIFICATE_HEADERS.has(name)) kept[name] = summarize(value, describe);
    else if (SECRET_HEADERS.has(name)) kept[name] = /^[A-Za-z]+ /.test(value) ? `${value.split(' ')[0]} ${JOURNAL_REDACTED}` : JOURNAL_REDACTED;
    else kept[name] = redactString(value, describe);
  }
  return kept;
}

/** Query parameters (as express parsed them) with secret ones redacted. */
export function redactQuery(query: Record<string, unknown>, describe: CertificateDescriber): Record<string, unknown> {
  return redactJson(query, describe, SECRET_PARAMETERS) as Record<string, unknown>;
}

/**
 * A request or response body as the journal keeps it, as the JSON members it adds to its entry's
 * `request` or `response`: none, `"body":…`, or `"body":…,"body_truncated":true`. JSON and form
 * bodies are parsed and redacted (a form by the parameter list, as at the token endpoints), anything
 * else is described by type and size only (an HTML page may embed secrets); over 4 KB serialized,
 * the first 4 KB as a string (contract §14). Text, because that is what the writer stores: the
 * body is serialized once.
 */
export function recordedBody(body: unknown, contentType: string | undefined, describe: CertificateDescriber): string {
  if (body === undefined || body === null || body === '') return '';
  const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
  const text = Buffer.isBuffer(body) ? body.toString('utf8') : body;
  let redacted: unknown;
  if (typeof text !== 'string') redacted = redactJson(text, describe, type === FORM ? FORM_SECRETS : SECRET_FIELDS);
  else if (type === FORM) redacted = redactJson(Object.fromEntries(new URLSearchParams(text)), describe, FORM_SECRETS);
  else if (type === 'application/json' || type.endsWith('+json')) redacted = parsedJson(text, describe);
  else return `"body":${JSON.stringify(`[${type || 'no content type'}, ${Buffer.byteLength(text)} bytes]`)}`;
  return limited(redacted);
}

/**
 * The recorded body members of a JSON text that JSON.stringify wrote (an answer's `res.json`), when
 * a scan of the text shows that it holds no secret: no PEM block, no parameter (`=`), no member
 * named as a secret field (no fragment of such a name at all, or else none of its member names is
 * one), and it is within the size limit. JSON.stringify escapes no letter, digit, `-` or `_`, so
 * every such name appears in the text as the name itself. Undefined: the text needs recordedBody.
 * Most answers pass (an eid status with its `hint_code`, a problem with its `reason.code` too), and
 * skip the parse, copy and second serialization.
 */
export function recordedStringifiedJson(text: string): string | undefined {
  if (text.length > JOURNAL_BODY_LIMIT_BYTES / 3 && Buffer.byteLength(text, 'utf8') > JOURNAL_BODY_LIMIT_BYTES) return undefined;
  if (text.includes('-----') || text.includes('=')) return undefined;
  if (SECRET_NAME_FRAGMENT.test(text) && !namesNoSecret(text)) return undefined;
  return `"body":${text}`;
}

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
  for (const [, name] of text.matchAll(MEMBER_NAME)) if (SECRET_FIELDS.has(normalized(name))) return false;
  return true;
}

function parsedJson(text: string, describe: CertificateDescriber): unknown {
  try {
    return redactJson(JSON.parse(text), describe);
  } catch {
    // Not JSON after all: nothing of it can be shown safely.
    return `[unparsable JSON, ${Buffer.byteLength(text)} bytes]`;
  }
}

function limited(value: unknown): string {
  const serialized = JSON.stringify(value);
  // Measured without a copy: most bodies are far under the limit.
  if (Buffer.byteLength(serialized, 'utf8') <= JOURNAL_BODY_LIMIT_BYTES) return `"body":${serialized}`;
  const bytes = Buffer.from(serialized, 'utf8');
  // Cut on a character boundary: a partial UTF-8 sequence at the end is dropped, not mangled.
  const head = new TextDecoder('utf-8', { fatal: false }).decode(bytes.subarray(0, JOURNAL_BODY_LIMIT_BYTES)).replace(/\uFFFD+$/, '');
  return `"body":${JSON.stringify(head)},"body_truncated":true`;
}
