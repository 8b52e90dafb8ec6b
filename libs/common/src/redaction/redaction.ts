import { createHash } from 'node:crypto';
import { IDEMPOTENCY_KEY_HEADER } from '../idempotency/idempotency-key';

/**
 * The one redaction of the service (contract §14: "the service's logs redact with the same one list,
 * one module for both"): the request journal and the logs both redact with these rules, and only
 * with them.
 *
 * - Names: one list of secret names, compared in any spelling (case, `-` and `_` ignored) and in any
 *   segment of a nested name (`a[access_token]`, `access_token[]`, `user.password`); the value of a
 *   query or form parameter or a JSON field so named, at any depth, is `[redacted]`.
 * - Headers: the value of every header whose name holds `token`, `secret`, `key`, `auth`,
 *   `password`, `cookie`, `session` or `signature`; `Idempotency-Key` as a short hash; the
 *   certificate header as its summary.
 * - Strings: inside any text, the value after `name=` (or `name%3D`) of a secret name in any
 *   spelling (`?`, `&`, `#` parameters, launch links `eid://autostarttoken=…`), of a JSON member of
 *   a secret name (`"access_token":"…"` in a text), and PEM private keys; a whole string that is a
 *   certificate becomes its summary.
 */

/** What a secret becomes (contract §14). */
export const REDACTED = '[redacted]';
/** The same in a parameter's place, where a URL carries its brackets percent-encoded. */
const REDACTED_IN_PARAMETER = encodeURIComponent(REDACTED);

/** A certificate as it is shown: whose it is and which one, never the certificate itself (contract §14). */
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

/** No reader: a certificate is shown by the fingerprint of the value as it came (the logs). */
export const FINGERPRINT_ONLY: CertificateDescriber = () => null;

// ---------------------------------------------------------------------------------------------- names

/**
 * The secret names (contract §14: tokens, pending codes, autostart tokens, QR strings, partner and
 * admin keys, private keys, PKCS#12 and its password), as the normalized() spelling.
 */
const SECRET_NAMES: ReadonlySet<string> = new Set(
  [
    'access_token',
    'refresh_token',
    'id_token',
    'token',
    'pending_code',
    'pending_authorization_code',
    // Also autostarttoken and auto_start_token: one name in normalized() spelling.
    'autostart_token',
    'qr_code',
    'qr_string',
    'qr_start_token',
    'qr_start_secret',
    // Also apikey.
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
    'idempotency_key',
  ].map(normalized),
);

/**
 * Secret as query or form parameters only: there `code` is OAuth's authorization code and `key` an
 * API key, while in JSON bodies they name reason and hint codes (`reason.code`, `hints[].code`).
 */
const PARAMETER_ONLY_SECRET_NAMES: ReadonlySet<string> = new Set(['code', 'key']);

/**
 * Every secret name holds one of these: a text without any, in any case and with `-` or `_` between
 * their letters, names no secret (checked below, for the lists may grow). The journal's fast path
 * scans for them (recordedStringifiedJson).
 */
const SECRET_NAME_FRAGMENTS = ['token', 'code', 'key', 'secret', 'password', 'pkcs', 'assertion', 'qr'];
for (const name of [...SECRET_NAMES, ...PARAMETER_ONLY_SECRET_NAMES]) {
  if (!SECRET_NAME_FRAGMENTS.some((fragment) => name.includes(fragment))) throw new Error(`the secret name ${name} holds none of SECRET_NAME_FRAGMENTS: add one`);
}
/** Unicode case folding (`u`): the Kelvin sign is a "k" to toLowerCase, so to normalized(), too. */
export const SECRET_NAME_FRAGMENT = new RegExp(SECRET_NAME_FRAGMENTS.map((fragment) => [...fragment].join('[-_]*')).join('|'), 'iu');

/** "accessToken", "access-token" and "ACCESS_TOKEN" are one name. */
function normalized(name: string): string {
  return name.toLowerCase().replace(/[-_]/g, '');
}

/** Where a name is: a JSON field (`code` and `key` are not secrets there), or a query or form parameter. */
export type NameKind = 'field' | 'parameter';
const SECRET_FIELD = 1;
const SECRET_PARAMETER = 2;
/** Names classified so far: bodies and queries repeat the same few (bounded, for the names are the clients'). */
const CLASSIFIED = new Map<string, number>();
const CLASSIFIED_KEPT = 4000;
/** The segments of a nested name: `a[access_token]`, `access_token[]`, `user.password`. */
const NAME_SEGMENTS = /[[\].]/;

/** Whether a field or parameter so named holds a secret (contract §14: any spelling). */
export function isSecretName(name: string, kind: NameKind): boolean {
  let secret = CLASSIFIED.get(name);
  if (secret === undefined) {
    secret = classified(name);
    if (CLASSIFIED.size < CLASSIFIED_KEPT) CLASSIFIED.set(name, secret);
  }
  return (secret & (kind === 'field' ? SECRET_FIELD : SECRET_PARAMETER)) !== 0;
}

function classified(name: string): number {
  let secret = 0;
  for (const segment of name.split(NAME_SEGMENTS)) {
    const spelling = normalized(segment);
    if (SECRET_NAMES.has(spelling)) return SECRET_FIELD | SECRET_PARAMETER;
    if (PARAMETER_ONLY_SECRET_NAMES.has(spelling)) secret |= SECRET_PARAMETER;
  }
  return secret;
}

// -------------------------------------------------------------------------------------------- headers

/** A header name holding one of these (any case, `-` and `_` ignored) carries a credential (contract §14). */
const SECRET_HEADER_FRAGMENTS = ['token', 'secret', 'key', 'auth', 'password', 'cookie', 'session', 'signature'];
/** Headers that carry a certificate: shown by its summary. */
export const CERTIFICATE_HEADERS: ReadonlySet<string> = new Set(['x-psd2-client-test-cert']);
const IDEMPOTENCY_KEY = IDEMPOTENCY_KEY_HEADER.toLowerCase();
/**
 * HTTP authentication schemes (IANA registry): a credential header keeps its scheme word, which
 * tells a reader what was sent and is no secret; any other first word may be the secret itself.
 */
const AUTHENTICATION_SCHEMES: ReadonlySet<string> = new Set(
  ['basic', 'bearer', 'digest', 'dpop', 'gnap', 'hoba', 'mutual', 'negotiate', 'ntlm', 'privatetoken', 'concealed', 'vapid', 'scram-sha-1', 'scram-sha-256', 'aws4-hmac-sha256'],
);

type HeaderKind = 'plain' | 'secret' | 'certificate' | 'idempotency-key';
const HEADER_KINDS = new Map<string, HeaderKind>();
const HEADER_KINDS_KEPT = 1000;

/** What a header (its name lower-cased) carries. */
function headerKind(name: string): HeaderKind {
  let kind = HEADER_KINDS.get(name);
  if (kind === undefined) {
    const compact = name.replace(/[-_]/g, '');
    kind = CERTIFICATE_HEADERS.has(name)
      ? 'certificate'
      : name === IDEMPOTENCY_KEY
        ? 'idempotency-key'
        : SECRET_HEADER_FRAGMENTS.some((fragment) => compact.includes(fragment))
          ? 'secret'
          : 'plain';
    if (HEADER_KINDS.size < HEADER_KINDS_KEPT) HEADER_KINDS.set(name, kind);
  }
  return kind;
}

/**
 * An Idempotency-Key as it is shown (contract §14, §15): never in clear, but by the first 12 hex
 * digits of its SHA-256, so a client can still match its retries.
 */
export function shownIdempotencyKey(key: string): string {
  return `[redacted sha256:${createHash('sha256').update(key).digest('hex').slice(0, 12)}]`;
}

/** A credential header's value: its scheme word, when it starts with one, and `[redacted]`. */
function redactedCredential(value: string): string {
  const scheme = /^([A-Za-z][A-Za-z0-9-]{0,31})\s+\S/.exec(value)?.[1];
  return scheme !== undefined && AUTHENTICATION_SCHEMES.has(scheme.toLowerCase()) ? `${scheme} ${REDACTED}` : REDACTED;
}

export type HeaderValues = Record<string, string | string[] | number | undefined>;

/**
 * Headers as they are shown: names lower-cased, the value of a credential header redacted, the
 * Idempotency-Key as its short hash, a certificate as its summary, and any other value by the
 * string rule.
 */
export function redactHeaders(headers: HeaderValues, describe: CertificateDescriber = FINGERPRINT_ONLY): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const [rawName, rawValue] of Object.entries(headers)) {
    if (rawValue === undefined) continue;
    const name = redactText(rawName.toLowerCase());
    const value = Array.isArray(rawValue) ? rawValue.join(', ') : String(rawValue);
    const kind = headerKind(name);
    kept[name] =
      kind === 'certificate'
        ? summarize(value, describe)
        : kind === 'idempotency-key'
          ? shownIdempotencyKey(value)
          : kind === 'secret'
            ? redactedCredential(value)
            : redactString(value, describe);
  }
  return kept;
}

// ------------------------------------------------------------------------------------ certificates

/** A PEM block's first line, its label's words apart by a space (or URL-encoded, as proxies forward a certificate). */
const pemBegin = (label: string) => `-----BEGIN(?:[ +]|%20)(?:[A-Z0-9]+(?:[ +]|%20))*${label.replaceAll(' ', '(?:[ +]|%20)')}-----`;
const PRIVATE_KEY = new RegExp(pemBegin('PRIVATE KEY'));
/** A private key's PEM block inside a text, to its end (or the text's). */
const PRIVATE_KEY_BLOCK = new RegExp(`${pemBegin('PRIVATE KEY')}[\\s\\S]*?(?:${pemBegin('PRIVATE KEY').replace('BEGIN', 'END')}|$)`, 'g');
/** The same in a JSON text: within the JSON string it is in, whole escapes only. */
const PRIVATE_KEY_BLOCK_IN_JSON = new RegExp(`${pemBegin('PRIVATE KEY')}(?:[^"\\\\]|\\\\[\\s\\S])*?(?:${pemBegin('PRIVATE KEY').replace('BEGIN', 'END')}|(?="))`, 'g');
/** CERTIFICATE, TRUSTED CERTIFICATE, X509 CERTIFICATE; not a CERTIFICATE REQUEST. */
const PEM_CERTIFICATE = new RegExp(pemBegin('CERTIFICATE'));
/**
 * The start of Base64 of a DER certificate (a SEQUENCE of 128 bytes to 64 KB: "MIG" to "MIL") or of
 * a PEM text ("-----BEGIN "), as the certificate header and GET /sandbox/test-certificate carry one.
 */
const BASE64_CERTIFICATE_START = '(?:MI[G-L]|LS0tLS1CRUdJTi)[A-Za-z0-9+/]{16}';
/** A whole string of such Base64 (line breaks allowed); shorter than the smallest certificate's, it is some other text. */
const BASE64_CERTIFICATE = new RegExp(`^\\s*${BASE64_CERTIFICATE_START}[A-Za-z0-9+/=\\s]*$`);
const BASE64_CERTIFICATE_MIN_LENGTH = 160;
/** Anywhere in a JSON text: a string value that may be one (a superset of what BASE64_CERTIFICATE finds in a value). */
export const BASE64_CERTIFICATE_IN_TEXT = new RegExp(BASE64_CERTIFICATE_START);
const BASE64_PEM = /^\s*LS0tLS1CRUdJTi/;

/**
 * A certificate, wherever it is (the certificate header, any other header, a query parameter, a body
 * field such as `certificate`, `certificate_pem` or `ca_pem`): its summary (contract §14). One the
 * describer cannot read still gets a fingerprint, of the value as it came.
 */
function summarize(value: string, describe: CertificateDescriber): CertificateSummary {
  return describe(value) ?? { sha256: fingerprint(value) };
}

/** The last value fingerprinted: a TPP sends the same certificate header on every call (a log line each). */
let lastFingerprinted: { value: string; sha256: string } | undefined;

function fingerprint(value: string): string {
  if (lastFingerprinted?.value !== value) lastFingerprinted = { value, sha256: createHash('sha256').update(value).digest('hex') };
  return lastFingerprinted.sha256;
}

// ------------------------------------------------------------------------------------------ strings

/**
 * A string value as it is shown: a private key goes, a certificate becomes its summary, and the
 * secrets inside any other text go (redactText).
 */
export function redactString(value: string, describe: CertificateDescriber = FINGERPRINT_ONLY): unknown {
  // Most strings hold neither a PEM block nor Base64 that starts like a certificate: cheap tests
  // before the patterns (every string of every recorded request passes here; issue 19).
  if (value.includes('-----')) {
    if (PRIVATE_KEY.test(value)) return REDACTED;
    if (PEM_CERTIFICATE.test(value)) return summarize(value, describe);
  }
  if (value.length >= BASE64_CERTIFICATE_MIN_LENGTH && BASE64_CERTIFICATE.test(value)) {
    // Base64 of a PEM private key is the key; anything else that starts like a certificate is summarized.
    if (BASE64_PEM.test(value) && PRIVATE_KEY.test(Buffer.from(value, 'base64').toString('latin1'))) return REDACTED;
    return summarize(value, describe);
  }
  return redactText(value);
}

export interface TextOptions {
  /**
   * The text is JSON itself (a log line): an unescaped quote is its own structure, never a quoted
   * secret, so a redaction never crosses one and the text stays JSON; and its own members are left
   * to whoever wrote them (the logs redact a line's fields before it is written), only JSON inside
   * its strings is read for members.
   */
  json?: boolean;
}

/**
 * The string rule (contract §14: "inside any string"): in any text — a URL with its query and
 * fragment, a launch link, a header value, a JSON string, a log line — the value after `name=` or
 * `name%3D` of every secret name in any spelling, the value of every JSON member of a secret field
 * name, and every PEM private key are replaced. Texts without `=`, `%3`, `":` or `PRIVATE` are
 * returned as they are, uncopied.
 */
export function redactText(text: string, options: TextOptions = {}): string {
  const json = options.json === true;
  if (!mayHoldSecrets(text, json)) return text;
  let redacted = redactParameters(text, json);
  if (redacted.includes(json ? '\\"' : '":')) redacted = redactJsonMembers(redacted, json);
  if (redacted.includes('PRIVATE')) redacted = redacted.replace(json ? PRIVATE_KEY_BLOCK_IN_JSON : PRIVATE_KEY_BLOCK, REDACTED);
  return redacted;
}

function mayHoldSecrets(text: string, json: boolean): boolean {
  // A PEM label is upper case: "PRIVATE" is found far faster than "-----" in texts full of dashes.
  return text.includes('=') || text.includes('%3') || text.includes(json ? '\\"' : '":') || text.includes('PRIVATE');
}

/** `=` or its percent-encoding, the end of a parameter's name. */
const SEPARATOR = /=|%3[dD]/g;

/** `A-Z a-z 0-9 _ - . [ ]`: the characters of a parameter's name, nested names included. */
function isNameCharacter(code: number): boolean {
  return (
    (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a) || (code >= 0x30 && code <= 0x39) || code === 0x5f || code === 0x2d || code === 0x2e || code === 0x5b || code === 0x5d
  );
}

function hexValue(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  const lower = code | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x61 + 10 : -1;
}

/** The character a `%XX` escape at `at` stands for, or -1 when there is none there. */
function escapedAt(text: string, at: number): number {
  if (text.charCodeAt(at) !== 0x25) return -1;
  const high = hexValue(text.charCodeAt(at + 1));
  const low = hexValue(text.charCodeAt(at + 2));
  return high < 0 || low < 0 ? -1 : high * 16 + low;
}

/**
 * The name that ends at `end`, decoded: its characters and the escapes of name characters
 * (`pending%5Fcode`, `%61ccess_token`), back to the first other character (`?`, `&`, `#`, `/`,
 * `=`, `%3F`…). Empty when there is none.
 */
function nameBefore(text: string, end: number): string {
  let start = end;
  let escaped = false;
  for (;;) {
    if (start >= 3 && escapedAt(text, start - 3) >= 0) {
      if (!isNameCharacter(escapedAt(text, start - 3))) break;
      start -= 3;
      escaped = true;
    } else if (start >= 1 && isNameCharacter(text.charCodeAt(start - 1))) {
      start -= 1;
    } else {
      break;
    }
  }
  const name = text.slice(start, end);
  return escaped ? name.replace(/%[0-9A-Fa-f]{2}/g, (escape) => String.fromCharCode(parseInt(escape.slice(1), 16))) : name;
}

/** Characters that end a parameter's value: `&`, `#`, white space, quotes, `<`, `>`, a backslash, a backquote. */
function endsValue(code: number): boolean {
  return code === 0x26 || code === 0x23 || code === 0x20 || (code >= 0x09 && code <= 0x0d) || code === 0x22 || code === 0x27 || code === 0x3c || code === 0x3e || code === 0x5c || code === 0x60;
}

/**
 * Where the value that starts at `start` ends. After a plain `=` at the first character that ends a
 * value; after `%3D` (a URL inside a parameter's value) at such a character's escape too (`%26`,
 * `%23`…). A value in quotes (`"…"`, `'…'`, or `\"…\"` in a JSON text) ends at its closing quote.
 */
function valueEnd(text: string, start: number, encoded: boolean, json: boolean): { from: number; to: number } {
  const quoted = quotedValue(text, start, json);
  if (quoted) return quoted;
  let at = start;
  while (at < text.length) {
    const code = text.charCodeAt(at);
    if (endsValue(code)) break;
    if (encoded && code === 0x25) {
      const escaped = escapedAt(text, at);
      if (escaped >= 0 && endsValue(escaped)) break;
    }
    at += 1;
  }
  return { from: start, to: at };
}

/**
 * A value in quotes at `start`: the span inside them. In a JSON text a double quote needs an odd run
 * of backslashes to be a value's: another is the text's own.
 */
function quotedValue(text: string, start: number, json: boolean): { from: number; to: number } | undefined {
  let at = start;
  while (text.charCodeAt(at) === 0x5c) at += 1;
  const backslashes = at - start;
  const quote = text.charCodeAt(at);
  if (quote !== 0x22 && quote !== 0x27) return undefined;
  // In a JSON text a quote after an even run of backslashes ends the JSON string it is in.
  if (json && quote === 0x22 && backslashes % 2 === 0) return undefined;
  return { from: at + 1, to: closingQuote(text, at + 1, text[at], backslashes, json) };
}

/**
 * Where a quoted value that starts at `from` ends: before its closing quote, the first one escaped
 * as the opening one was (`backslashes`; an odd run more is a quote inside the value), or any
 * unescaped one when it opened unescaped. In a JSON text never past the end of the JSON string it
 * is in (its first quote after an even run of backslashes), so the text stays JSON.
 */
function closingQuote(text: string, from: number, quote: string, backslashes: number, json: boolean): number {
  for (let at = from; at < text.length; at += 1) {
    const code = text.charCodeAt(at);
    if (code !== 0x22 && code !== 0x27) continue;
    let run = 0;
    while (at - run - 1 >= from && text.charCodeAt(at - run - 1) === 0x5c) run += 1;
    if (text[at] === quote && (run === backslashes || (backslashes === 0 && run % 2 === 0))) return at - backslashes;
    if (json && code === 0x22 && run % 2 === 0) return at;
  }
  return text.length;
}

/** Whether the text at `at` is already a redaction (`[redacted]`, `[redacted sha256:…]`, or either percent-encoded). */
function isRedactedAt(text: string, at: number): boolean {
  return text.startsWith('[redacted', at) || text.startsWith('%5Bredacted', at) || text.startsWith('%5bredacted', at);
}

/** The `name=value` part of the string rule. */
function redactParameters(text: string, json: boolean): string {
  let redacted = '';
  let copied = 0;
  SEPARATOR.lastIndex = 0;
  for (let separator = SEPARATOR.exec(text); separator; separator = SEPARATOR.exec(text)) {
    const name = nameBefore(text, separator.index);
    if (name === '' || !isSecretName(name, 'parameter')) continue;
    const value = valueEnd(text, separator.index + separator[0].length, separator[0] !== '=', json);
    if (value.to > value.from && !isRedactedAt(text, value.from)) {
      redacted += text.slice(copied, value.from) + (value.from === separator.index + separator[0].length ? REDACTED_IN_PARAMETER : REDACTED);
      copied = value.to;
    }
    SEPARATOR.lastIndex = Math.max(value.to, SEPARATOR.lastIndex);
  }
  return copied === 0 ? text : redacted + text.slice(copied);
}

/**
 * A JSON member with a string value inside a text: `"name":"…"`, or `\"name\":\"…\"` in JSON held
 * in a JSON string (its quotes escaped as often as the member's level asks).
 */
const JSON_MEMBER = /(\\*)"([A-Za-z0-9_.\-[\]]{1,128})\1"\s*:\s*\1"/g;

/** The `"name":"value"` part of the string rule: a member of a secret field's name, in JSON inside a text. */
function redactJsonMembers(text: string, json: boolean): string {
  let redacted = '';
  let copied = 0;
  JSON_MEMBER.lastIndex = 0;
  for (let member = JSON_MEMBER.exec(text); member; member = JSON_MEMBER.exec(text)) {
    // In a JSON text its own members (no backslash) are not read, and a quote after an even run of backslashes is no member's.
    if ((json && member[1].length % 2 === 0) || !isSecretName(member[2], 'field')) continue;
    const from = member.index + member[0].length;
    const to = closingQuote(text, from, '"', member[1].length, json);
    if (to > from && !isRedactedAt(text, from)) {
      redacted += text.slice(copied, from) + REDACTED;
      copied = to;
    }
    JSON_MEMBER.lastIndex = Math.max(to, JSON_MEMBER.lastIndex);
  }
  return copied === 0 ? text : redacted + text.slice(copied);
}

/**
 * A URL as it is shown (a log line's `url`, an entry's path): the string rule over it, which covers
 * its path, query and fragment as written; and over each of its parts as the server reads them
 * (decoded), so JSON or a link percent-encoded inside a parameter's value goes too. A part that held
 * a secret is written again encoded; every other byte stays as it was sent.
 */
export function redactUrl(url: string): string {
  const redacted = redactText(url);
  if (!redacted.includes('%')) return redacted;
  return redacted.replace(URL_PART, (part: string) => {
    if (!part.includes('%')) return part;
    const equals = part.indexOf('=');
    if (equals < 0) return decodedRedacted(part) ?? part;
    const value = decodedRedacted(part.slice(equals + 1));
    return value === undefined ? part : `${part.slice(0, equals + 1)}${value}`;
  });
}

/** A part of a URL between its delimiters: a path segment, a parameter, the fragment's. */
const URL_PART = /[^/?&#;]+/g;

/** Times a URL's part is decoded to find what it holds: a link inside a parameter is encoded once more at each level. */
const MAX_DECODINGS = 3;

/**
 * The part decoded (as often as it holds escapes, up to MAX_DECODINGS), redacted by the string rule
 * at every level and encoded again as often; undefined when that changes nothing.
 */
function decodedRedacted(part: string): string | undefined {
  const levels = [part];
  for (let last = part; levels.length <= MAX_DECODINGS && last.includes('%'); ) {
    const decoded = percentDecoded(last.replace(/\+/g, ' '));
    if (decoded === last) break;
    levels.push(decoded);
    last = decoded;
  }
  let shown = redactText(levels[levels.length - 1]);
  for (let level = levels.length - 2; level >= 0; level -= 1) {
    shown = shown === levels[level + 1] ? levels[level] : redactText(encodeURIComponent(shown));
  }
  return shown === part ? undefined : shown;
}

/** Percent-decoding that never throws: a malformed escape (or UTF-8) is read byte by byte. */
function percentDecoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text.replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  }
}

// ------------------------------------------------------------------------------------- JSON values

/** How a JSON value is being redacted, and whether a level was cut. */
interface Redaction {
  readonly describe: CertificateDescriber;
  readonly kind: NameKind;
  readonly depthLimit: number;
  cut: boolean;
}

export interface JsonRedactionOptions {
  describe?: CertificateDescriber;
  /** Whose names: a JSON body's fields, or a query's or form's parameters. */
  kind: NameKind;
  /** Levels kept (the top one is 1); deeper ones are cut and `cut` says so. */
  depthLimit: number;
}

/**
 * A copy of a parsed JSON value (a body, a query, a form) with every secret replaced: the value of
 * every member of a secret name (whatever its type), and every string by redactString; member names
 * by the string rule too. Levels past the limit are cut; a `__proto__` key stays plain data.
 */
export function redactJson(value: unknown, options: JsonRedactionOptions): { redacted: unknown; cut: boolean } {
  const redaction: Redaction = { describe: options.describe ?? FINGERPRINT_ONLY, kind: options.kind, depthLimit: options.depthLimit, cut: false };
  return { redacted: redactValue(value, redaction, 1), cut: redaction.cut };
}

/** `level`: the value's own, the top one's 1 (as json-depth counts). */
function redactValue(value: unknown, redaction: Redaction, level: number): unknown {
  if (typeof value === 'string') return redactString(value, redaction.describe);
  if (value === null || typeof value !== 'object') return value;
  if (level > redaction.depthLimit) {
    redaction.cut = true;
    return `[nested deeper than ${redaction.depthLimit} levels]`;
  }
  if (Array.isArray(value)) return value.map((item) => redactValue(item, redaction, level + 1));
  const copy: Record<string, unknown> = {};
  for (const name of Object.keys(value)) {
    const field = (value as Record<string, unknown>)[name];
    const secret = isSecretName(name, redaction.kind) && field !== null && field !== undefined;
    const kept = secret ? REDACTED : redactValue(field, redaction, level + 1);
    const shownName = redactText(name);
    // Defined, not assigned: a "__proto__" key is data, never the prototype.
    if (shownName === '__proto__') Object.defineProperty(copy, shownName, { value: kept, enumerable: true, writable: true, configurable: true });
    else copy[shownName] = kept;
  }
  return copy;
}
