import { QueryFailedError } from 'typeorm';

/**
 * Query-string parameters whose value is a secret (DEVELOPERS.md: never logged), compared without
 * regard to case. A client may put any of them in a URL by mistake; the log shows the name only.
 */
export const SECRET_QUERY_PARAMETERS: ReadonlySet<string> = new Set([
  'access_token',
  'refresh_token',
  'id_token',
  'token',
  'pending_code',
  'pending_authorization_code',
  'code',
  'autostarttoken',
  'autostart_token',
  'auto_start_token',
  'qr_code',
  'qr_string',
  'qr_start_secret',
  'api_key',
  'apikey',
  'key',
  'admin_key',
  'demo_partner_key',
  'client_secret',
  'client_assertion',
  'password',
  'pkcs12_password',
  'pkcs12_base64',
  'private_key_pem',
  'secret',
]);

export const REDACTED = '[Redacted]';

/** "/sandbox/eid?autostarttoken=abc&x=1" → "/sandbox/eid?autostarttoken=%5BRedacted%5D&x=1". */
export function redactUrl(url: string): string {
  const queryAt = url.indexOf('?');
  if (queryAt < 0) return url;
  const params = new URLSearchParams(url.slice(queryAt + 1));
  let secret = false;
  for (const name of new Set(params.keys())) {
    if (!SECRET_QUERY_PARAMETERS.has(name.toLowerCase())) continue;
    secret = true;
    // set() replaces every occurrence of a repeated parameter.
    params.set(name, REDACTED);
  }
  return secret ? `${url.slice(0, queryAt)}?${params.toString()}` : url;
}

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

/**
 * pino's serializer for `err`: a database error (and one caused by it) is logged by SQLSTATE, names
 * and statement name only, never the statement's parameter values or PostgreSQL's `detail`, which
 * quotes them (issue 13). Any other error keeps pino's standard serialization.
 */
export function serializeError(serialized: SerializedError): unknown {
  const raw = serialized?.raw;
  if (!(raw instanceof Error)) return serialized;
  const database = databaseErrorOf(raw);
  if (database) return databaseErrorLog(raw, database);
  const cause = databaseCause(raw);
  if (!cause) return serialized;
  const type = raw.constructor?.name || raw.name;
  return { type, message: raw.message, stack: [`${type}: ${raw.message}`, ...stackFrames(raw)].join('\n'), cause: databaseErrorLog(cause.error, cause.database) };
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
