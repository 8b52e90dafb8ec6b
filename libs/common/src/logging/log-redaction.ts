import { QueryFailedError } from 'typeorm';
import { type HeaderValues, isSecretName, REDACTED, redactHeaders, redactJson, redactText, redactUrl } from '../redaction/redaction';

/**
 * The logs' side of the one redaction (libs/common/src/redaction, contract §14: the logs redact
 * with the journal's list, one module for both): pino's serializers of a request, an answer and an
 * error, and the last look at every line before it is written. A redaction that fails never lets
 * its value through: the value (or the line) is replaced and counted on /health.
 */

/** What a logged value whose redaction failed becomes. */
export const LOG_REDACTION_FAILED = '[redaction failed]';

let logRedactionFailures = 0;

/** Logged values and lines replaced because their redaction failed, in this process (/health). */
export function logRedactionFailed(): number {
  return logRedactionFailures;
}

function safely<T>(redact: () => T): T | typeof LOG_REDACTION_FAILED {
  try {
    return redact();
  } catch {
    logRedactionFailures += 1;
    return LOG_REDACTION_FAILED;
  }
}

/** Levels a logged error or route parameters keep: far more than they have. */
const LOGGED_DEPTH_LIMIT = 8;

/** A request as pino-std-serializers gives it (request lines: trace, debug, info). */
interface SerializedRequest {
  url?: string;
  headers?: HeaderValues;
  params?: unknown;
  query?: unknown;
  [key: string]: unknown;
}

/**
 * A request line's request: the url by the string rule (path, query and fragment), the headers by
 * the header rule (a certificate by the fingerprint of what came), route parameters by the name and
 * string rules; the parsed query is left out (it is in the url).
 */
export function loggedRequest(req: SerializedRequest): unknown {
  return safely(() => ({
    ...req,
    url: req.url && redactUrl(req.url),
    headers: req.headers && redactHeaders(req.headers),
    params: req.params && redactJson(req.params, { kind: 'parameter', depthLimit: LOGGED_DEPTH_LIMIT }).redacted,
    query: undefined,
  }));
}

/** The request a line names at warn and above: its id, method and url (by the string rule), no more. */
export function loggedRequestName({ id, method, url }: { id?: unknown; method?: string; url?: string }): unknown {
  return safely(() => ({ id, method, url: url && redactUrl(url) }));
}

/** A request line's answer: its status, and its headers by the header rule. */
export function loggedResponse(res: { statusCode?: number; headers?: HeaderValues; [key: string]: unknown }): unknown {
  return safely(() => ({ ...res, headers: res.headers && redactHeaders(res.headers) }));
}

/** Fields whose serializer redacts them (pino-http's request and answer, an error). */
const SERIALIZED_FIELDS: ReadonlySet<string> = new Set(['req', 'res', 'err']);

/**
 * The fields a log call gives (pino's `formatters.log`), but those its serializers redact: the
 * value of a field of a secret name goes, strings by the string rule, plain objects by the name and
 * string rules at any depth. The object itself is left as it was: a copy carries the changes.
 */
export function redactLogFields(fields: Record<string, unknown>): Record<string, unknown> {
  let copy: Record<string, unknown> | undefined;
  for (const field of Object.keys(fields)) {
    if (SERIALIZED_FIELDS.has(field)) continue;
    const value = fields[field];
    const shown = safely(() => loggedField(field, value));
    if (shown !== value) (copy ??= { ...fields })[field] = shown;
  }
  return copy ?? fields;
}

function loggedField(field: string, value: unknown): unknown {
  if (value === null || value === undefined) return value;
  if (isSecretName(field, 'field')) return REDACTED;
  if (typeof value === 'string') return redactText(value);
  if (typeof value !== 'object') return value;
  const prototype = Object.getPrototypeOf(value) as unknown;
  // Plain data only: an error or a class instance is pino's to write (its serializer, its toJSON).
  if (!Array.isArray(value) && prototype !== Object.prototype && prototype !== null) return value;
  return redactJson(value, { kind: 'field', depthLimit: LOGGED_DEPTH_LIMIT }).redacted;
}

/**
 * The last look at a log line, as pino writes it (its `streamWrite` hook): the string rule over the
 * JSON text, so a secret parameter, a secret member in JSON inside a string, or a private key, in
 * any field of any line (a message, an error's stack) goes too. A line whose redaction fails is
 * replaced by a line that says so.
 */
export function redactLogLine(line: string): string {
  try {
    return redactText(line, { json: true });
  } catch {
    logRedactionFailures += 1;
    const level = /"level":(\d+)/.exec(line)?.[1] ?? '50';
    return `{"level":${level},"msg":"log line dropped: its redaction failed"}\n`;
  }
}

export { redactUrl };

/**
 * A name for a SQL statement that carries no value: its verb and first table, e.g. "UPDATE
 * eid_order". The text itself is left out of logs: a statement built with literals would carry them.
 */
export function queryName(sql: string): string {
  const text = sql.replace(/--[^\n]*/g, ' ').replace(/\s+/g, ' ').trim();
  const verb = /^[A-Za-z]+/.exec(text)?.[0].toUpperCase() ?? 'QUERY';
  const table = /\b(?:INTO|UPDATE|FROM)\s+("?[A-Za-z_][\w$]*"?(?:\."?[A-Za-z_][\w$]*"?)?)/i.exec(text)?.[1];
  return table ? `${verb} ${table.replaceAll('"', '')}` : verb;
}

/** The fields of a PostgreSQL error that name things (no values): `detail`, `where` and `hint` may quote data. */
const DATABASE_ERROR_NAMES = ['code', 'severity', 'routine', 'schema', 'table', 'column', 'dataType', 'constraint'] as const;

interface DatabaseError extends Error {
  code: string;
  severity?: string;
  routine?: string;
  schema?: string;
  table?: string;
  column?: string;
  dataType?: string;
  constraint?: string;
}

/** A pg DatabaseError (an SQLSTATE and a severity), or what TypeORM wraps one in. */
function databaseErrorOf(error: unknown): DatabaseError | null {
  if (error instanceof QueryFailedError) return databaseErrorOf(error.driverError) ?? (error as unknown as DatabaseError);
  if (error instanceof Error && typeof (error as Partial<DatabaseError>).code === 'string' && typeof (error as Partial<DatabaseError>).severity === 'string') {
    return error as DatabaseError;
  }
  return null;
}

/**
 * PostgreSQL's message without the values it quotes: what follows ": " is the input ("invalid input
 * syntax for type uuid: \"…\""), and a quoted word that is not one of the error's names is a value.
 */
function valueFreeMessage(message: string, names: readonly string[]): string {
  return message.replace(/"((?:[^"]|"")*)"/g, (quoted, inner: string) => (names.includes(inner) ? quoted : '"…"')).replace(/:\s[\s\S]*$/, '');
}

const stackFrames = (error: Error) => (error.stack ?? '').split('\n').filter((line) => /^\s+at /.test(line));

/** A database error as a log may show it: SQLSTATE, names, the statement's name; no parameter, no detail. */
function databaseErrorLog(error: Error, database: DatabaseError): Record<string, unknown> {
  const names = DATABASE_ERROR_NAMES.map((field) => database[field]).filter((value): value is string => typeof value === 'string');
  const type = error.constructor?.name || error.name;
  const message = valueFreeMessage(database.message, names);
  const log: Record<string, unknown> = { type, message };
  for (const field of DATABASE_ERROR_NAMES) if (typeof database[field] === 'string') log[field] = database[field];
  if (error instanceof QueryFailedError && typeof error.query === 'string') log.query = queryName(error.query);
  log.stack = [`${type}: ${message}`, ...stackFrames(error)].join('\n');
  return log;
}

/** pino's standard error serialization; `raw` is the error itself. */
interface SerializedError {
  raw?: unknown;
  [key: string]: unknown;
}

/** Fields of an error that hold what the client sent: never logged (body-parser's `body` is the request body as sent). */
const UNLOGGED_ERROR_FIELDS: ReadonlySet<string> = new Set(['raw', 'body']);

/**
 * pino's serializer for `err`: a database error (and one caused by it) is logged by SQLSTATE, names
 * and statement name only, never the statement's parameter values or PostgreSQL's `detail`, which
 * quotes them (issue 13). Any other error keeps pino's standard serialization but the request body
 * some carry, redacted by the name and string rules (its message and stack may quote a url).
 */
export function serializeError(serialized: SerializedError): unknown {
  return safely(() => {
    const raw = serialized?.raw;
    const database = raw instanceof Error ? databaseErrorOf(raw) : null;
    if (raw instanceof Error && database) return databaseErrorLog(raw, database);
    const cause = raw instanceof Error ? databaseCause(raw) : null;
    if (raw instanceof Error && cause) {
      const type = raw.constructor?.name || raw.name;
      const message = redactText(raw.message);
      return { type, message, stack: redactText([`${type}: ${raw.message}`, ...stackFrames(raw)].join('\n')), cause: databaseErrorLog(cause.error, cause.database) };
    }
    if (serialized === null || typeof serialized !== 'object') return serialized;
    const logged: Record<string, unknown> = {};
    for (const [field, value] of Object.entries(serialized)) {
      if (UNLOGGED_ERROR_FIELDS.has(field)) {
        if (field === 'body' && value !== undefined) logged.body = REDACTED;
        continue;
      }
      logged[field] = value;
    }
    return redactJson(logged, { kind: 'field', depthLimit: LOGGED_DEPTH_LIMIT }).redacted;
  });
}

function databaseCause(error: Error): { error: Error; database: DatabaseError } | null {
  const seen = new Set<unknown>([error]);
  for (let cause: unknown = error.cause; cause instanceof Error && !seen.has(cause); cause = cause.cause) {
    seen.add(cause);
    const database = databaseErrorOf(cause);
    if (database) return { error: cause, database };
  }
  return null;
}
