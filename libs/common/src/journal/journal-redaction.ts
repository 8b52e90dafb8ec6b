import { createHash } from 'node:crypto';
import { leadingValues, MAX_BODY_DEPTH } from '../http/json-depth';
import { SECRET_QUERY_PARAMETERS } from '../logging/log-redaction';

/** What a secret becomes in a journal entry (contract §14). */
export const JOURNAL_REDACTED = '[redacted]';
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
const TOO_DEEP = `[nested deeper than ${JOURNAL_DEPTH_LIMIT} levels]`;

/** A certificate as the journal shows it: whose it is and which one, never the certificate itself (contract §14). */
export interface CertificateSummary {
  /** The subject's organizationIdentifier; absent when it names none or cannot be read (contract §2: never null). */
  organization_id?: string;
  /** SHA-256 of the DER, lowercase hex (so every form of one certificate has one); of the value itself when it cannot be read. */
  sha256: string;
}

/**
 * Reads a certificate in any form a request or answer carries one: PEM text (URL-encoded too), or
 * Base64 of its DER or of its PEM (the X-PSD2-CLIENT-TEST-CERT header). Null when it is not one.
 * Given by the lib that parses certificates.
 */
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

/** A PEM block's first line, its label's words apart by a space (or URL-encoded, as proxies forward a certificate). */
const pemBegin = (label: string) => new RegExp(`-----BEGIN(?:[ +]|%20)(?:[A-Z0-9]+(?:[ +]|%20))*${label.replaceAll(' ', '(?:[ +]|%20)')}-----`);
const PRIVATE_KEY = pemBegin('PRIVATE KEY');
/** CERTIFICATE, TRUSTED CERTIFICATE, X509 CERTIFICATE; not a CERTIFICATE REQUEST. */
const PEM_CERTIFICATE = pemBegin('CERTIFICATE');
/**
 * The start of Base64 of a DER certificate (a SEQUENCE of 128 bytes to 64 KB: "MIG" to "MIL") or of
 * a PEM text ("-----BEGIN "), as the certificate header and GET /sandbox/test-certificate carry one.
 */
const BASE64_CERTIFICATE_START = '(?:MI[G-L]|LS0tLS1CRUdJTi)[A-Za-z0-9+/]{16}';
/** A whole string of such Base64 (line breaks allowed); shorter than the smallest certificate's, it is some other text. */
const BASE64_CERTIFICATE = new RegExp(`^\\s*${BASE64_CERTIFICATE_START}[A-Za-z0-9+/=\\s]*$`);
const BASE64_CERTIFICATE_MIN_LENGTH = 160;
/** Anywhere in a JSON text: a string value that may be one (a superset of what BASE64_CERTIFICATE finds in a value). */
const BASE64_CERTIFICATE_IN_TEXT = new RegExp(BASE64_CERTIFICATE_START);
const BASE64_PEM = /^\s*LS0tLS1CRUdJTi/;
/** A secret query parameter inside a string value (a link, a `bankid:///?autostarttoken=…` URL). */
const SECRET_IN_URL = new RegExp(`([?&](?:${[...SECRET_QUERY_PARAMETERS].map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})=)[^&#\\s"'<>]*`, 'gi');

/**
 * A certificate, wherever it is (the certificate header, any other header, a query parameter, a body
 * field such as `certificate`, `certificate_pem` or `ca_pem`): its summary (contract §14). One the
 * describer cannot read still gets a fingerprint, of the value as it came.
 */
function summarize(value: string, describe: CertificateDescriber): CertificateSummary {
  return describe(value) ?? { sha256: createHash('sha256').update(value).digest('hex') };
}

/** A string value: a secret inside it (a private key, a secret link parameter) goes, and a certificate becomes its summary. */
function redactString(value: string, describe: CertificateDescriber): unknown {
  // Most strings hold neither a PEM block, nor Base64 that starts like a certificate, nor a parameter:
  // cheap tests before the patterns (every string of every recorded request passes here; issue 19).
  if (value.includes('-----')) {
    if (PRIVATE_KEY.test(value)) return JOURNAL_REDACTED;
    if (PEM_CERTIFICATE.test(value)) return summarize(value, describe);
  }
  if (value.length >= BASE64_CERTIFICATE_MIN_LENGTH && BASE64_CERTIFICATE.test(value)) {
    // Base64 of a PEM private key is the key; anything else that starts like a certificate is summarized.
    if (BASE64_PEM.test(value) && PRIVATE_KEY.test(Buffer.from(value, 'base64').toString('latin1'))) return JOURNAL_REDACTED;
    return summarize(value, describe);
  }
  return value.includes('=') ? value.replace(SECRET_IN_URL, `$1${encodeURIComponent(JOURNAL_REDACTED)}`) : value;
}

/** How a JSON value is being redacted, and whether a level was cut (JOURNAL_DEPTH_LIMIT). */
interface Redaction {
  readonly describe: CertificateDescriber;
  readonly secretNames: ReadonlySet<string>;
  cut: boolean;
}

/** A copy of a parsed JSON value with every secret replaced and levels past JOURNAL_DEPTH_LIMIT cut; prototype keys stay plain data. */
function redactJson(value: unknown, describe: CertificateDescriber, secretNames: ReadonlySet<string> = SECRET_FIELDS): { redacted: unknown; cut: boolean } {
  const redaction: Redaction = { describe, secretNames, cut: false };
  return { redacted: redactValue(value, redaction, 1), cut: redaction.cut };
}

/** `level`: the value's own, the top one's 1 (as json-depth counts). */
function redactValue(value: unknown, redaction: Redaction, level: number): unknown {
  if (typeof value === 'string') return redactString(value, redaction.describe);
  if (value === null || typeof value !== 'object') return value;
  if (level > JOURNAL_DEPTH_LIMIT) {
    redaction.cut = true;
    return TOO_DEEP;
  }
  if (Array.isArray(value)) return value.map((item) => redactValue(item, redaction, level + 1));
  const copy: Record<string, unknown> = {};
  for (const name of Object.keys(value)) {
    const field = (value as Record<string, unknown>)[name];
    const secret = redaction.secretNames.has(normalized(name)) && field !== null && field !== undefined;
    const kept = secret ? JOURNAL_REDACTED : redactValue(field, redaction, level + 1);
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
  return redactJson(query, describe, SECRET_PARAMETERS).redacted as Record<string, unknown>;
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
  if (typeof text !== 'string') redaction = redactJson(sentBytes === undefined || sentBytes > LEADING_VALUES ? leadingValues(text, LEADING_VALUES) : text, describe, type === FORM ? FORM_SECRETS : SECRET_FIELDS);
  else if (type === FORM) redaction = redactJson(Object.fromEntries(new URLSearchParams(text)), describe, FORM_SECRETS);
  else if (type === 'application/json' || type.endsWith('+json')) redaction = parsedJson(text, describe);
  else return `"body":${JSON.stringify(`[${type || 'no content type'}, ${Buffer.byteLength(text)} bytes]`)}`;
  if (redaction.cut) return truncated(JSON.stringify(redaction.redacted));
  return limited(JSON.stringify(redaction.redacted), sentBytes ?? sizeAsSent(text));
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
  if (text.includes('-----') || text.includes('=') || BASE64_CERTIFICATE_IN_TEXT.test(text)) return undefined;
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

function parsedJson(text: string, describe: CertificateDescriber): { redacted: unknown; cut: boolean } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Not JSON after all: nothing of it can be shown safely.
    return { redacted: `[unparsable JSON, ${Buffer.byteLength(text)} bytes]`, cut: false };
  }
  return redactJson(parsed, describe);
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
