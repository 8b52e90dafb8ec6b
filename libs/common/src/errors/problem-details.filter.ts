import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { STATUS_CODES } from 'node:http';
import { bodyParserFailure } from '../http/body-parser-errors';
import type { RequestWithSandbox } from '../sandbox/request-sandbox';
import { SandboxLifecycleRace } from '../sandbox/sandbox-lifecycle-race';
import { DeletedSandbox, isWriteToDeletedSandbox } from '../sandbox/sandbox-registry';
import { type TokenEndpoint, tokenEndpointOf } from '../http/token-endpoints';
import { BEARER_CHALLENGE, DomainError, DomainErrorKind, ErrorCode } from './domain-error';
import { listAtMost } from './field-list';
import { OAuthError, type OAuthErrorCode } from './oauth-error';
import { IDEMPOTENT_REPLAYED_HEADER } from '../idempotency/idempotency-key';
import { ReplayedAnswer } from '../idempotency/replayed-answer';

/** The only place where a problem's meaning becomes an HTTP status. */
export const STATUS_OF_KIND: Record<DomainErrorKind, number> = {
  invalid_input: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  invalid_state: 409,
  gone: 410,
  payload_too_large: 413,
  unprocessable: 422,
  too_many_requests: 429,
  internal: 500,
  not_implemented: 501,
  unavailable: 503,
};

/**
 * The one status → code map: the code of a status when nothing more specific names one — Nest's own
 * HttpExceptions (unknown route, body parser, passport) and the OpenAPI examples. 409 is a wrong
 * state, INVALID_STATE (contract §2, whose catalogue has no CONFLICT).
 */
export const CODE_OF_STATUS: Readonly<Partial<Record<number, ErrorCode>>> = {
  400: 'VALIDATION_FAILED',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'INVALID_STATE',
  410: 'VERSION_WITHDRAWN',
  413: 'PAYLOAD_TOO_LARGE',
  422: 'IDEMPOTENCY_KEY_REUSED',
  429: 'POLLING_TOO_FAST',
  500: 'INTERNAL_ERROR',
  501: 'NOT_SIMULATED',
  503: 'PLANNED_DOWNTIME',
};

export interface ProblemBody {
  type: 'about:blank';
  title: string;
  status: number;
  instance: string;
  reason: { code: string; message: string };
}

export interface Problem {
  status: number;
  code: string;
  message: string;
  headers: Readonly<Record<string, string>>;
}

/** Maps anything thrown to the problem it stands for; unknown errors become 500 INTERNAL_ERROR. */
export function toProblem(exception: unknown): Problem {
  if (isWriteToDeletedSandbox(exception)) return toProblem(new DeletedSandbox());
  if (exception instanceof DomainError) {
    return { status: STATUS_OF_KIND[exception.kind], code: exception.code, message: exception.message, headers: exception.headers };
  }
  if (exception instanceof HttpException && exception.getStatus() < 500) {
    const parserFailure = bodyParserFailure(exception.cause);
    if (parserFailure) return toProblem(parserFailure);
    const status = exception.getStatus();
    // Every 401 carries the challenge (contract §2); a DomainError 401 brings its own.
    const headers: Record<string, string> = status === 401 ? { 'WWW-Authenticate': BEARER_CHALLENGE } : {};
    return { status, code: CODE_OF_STATUS[status] ?? 'VALIDATION_FAILED', message: httpExceptionMessage(exception), headers };
  }
  return { status: 500, code: 'INTERNAL_ERROR', message: 'An unexpected error occurred. It has been logged.', headers: {} };
}

function httpExceptionMessage(exception: HttpException): string {
  const status: HttpStatus = exception.getStatus();
  if (status === HttpStatus.PAYLOAD_TOO_LARGE) return 'The request body is larger than the limit of 1 MB.';
  if (status === HttpStatus.NOT_FOUND) return 'No route matches this method and path.';
  if (exception.cause instanceof SyntaxError) return `The request body is not valid JSON: ${exception.cause.message}`;
  // Express's message names the segment's value ("Failed to decode param '%E0%A4%A'").
  if (exception.cause instanceof URIError) {
    return `The path is not valid percent-encoded UTF-8: ${exception.cause.message.replace(/^Failed to decode param /, 'segment ')}.`;
  }
  const response = exception.getResponse();
  const message = typeof response === 'object' && response !== null && 'message' in response ? response.message : response;
  return Array.isArray(message) ? listAtMost(message.map(String)) : String(message);
}

/** The path as the client sent it (an alias of a retired path is rewritten to its successor on the way). */
export function requestPath(request: Request): string {
  return (request.originalUrl ?? request.url).split('?')[0];
}

export function problemBody(problem: Problem, instance: string): ProblemBody {
  return {
    type: 'about:blank',
    title: STATUS_CODES[problem.status] ?? 'Error',
    status: problem.status,
    instance,
    reason: { code: problem.code, message: problem.message },
  };
}

/** How the token endpoints name every other failure, by its status (contract §2 table). */
function oauthErrorOfStatus(status: number): OAuthErrorCode {
  if (status === 401) return 'invalid_client';
  if (status === 503) return 'temporarily_unavailable';
  return status >= 500 ? 'server_error' : 'invalid_request';
}

/** An RFC 6749 §5.2 error answer of a token endpoint. */
function oauthAnswer(exception: unknown, endpoint: TokenEndpoint): { status: number; body: { error: OAuthErrorCode; error_description: string }; headers: Record<string, string> } {
  if (exception instanceof OAuthError) {
    return { status: exception.status, body: { error: exception.error, error_description: exception.description }, headers: {} };
  }
  const problem = toProblem(exception);
  const headers = { ...problem.headers };
  // The PSD2 client authenticates with its certificate header, not an HTTP authentication scheme, so
  // its invalid_client has no challenge; the enterprise client sends a bearer and gets one (contract §2).
  if (endpoint === 'psd2') delete headers['WWW-Authenticate'];
  return { status: problem.status, body: { error: oauthErrorOfStatus(problem.status), error_description: problem.message }, headers };
}

/** An error answer, ready to send: status, headers (Content-Type included) and the body text. */
export interface ErrorAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** No error answer's body is larger than this (contract §2, bounded work). */
export const ERROR_BODY_LIMIT_BYTES = 16 * 1024;
/** A request path longer than this is cut in `instance` (Node lets a request line reach 16 KB). */
const INSTANCE_LIMIT_CHARACTERS = 2048;
const CUT_MARK = '… (cut to fit 16 KB)';

/**
 * The body text `render` makes of `message`, whole when within ERROR_BODY_LIMIT_BYTES, else with the
 * longest start of the message that fits, marked as cut. Every message is within the limit this way,
 * whoever wrote it: the pipe's lists of fields, a parser's, a client's bytes named in one.
 */
function withinErrorBodyLimit(render: (message: string) => string, message: string): string {
  const whole = render(message);
  // A UTF-8 byte is never more than a UTF-16 unit takes times three: most bodies are measured without counting.
  if (whole.length * 3 <= ERROR_BODY_LIMIT_BYTES || Buffer.byteLength(whole) <= ERROR_BODY_LIMIT_BYTES) return whole;
  const fits = (length: number) => Buffer.byteLength(render(startOf(message, length) + CUT_MARK)) <= ERROR_BODY_LIMIT_BYTES;
  // Every character writes a byte or more: no start longer than the limit fits.
  let low = 0;
  let high = Math.min(message.length, ERROR_BODY_LIMIT_BYTES);
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (fits(middle)) low = middle;
    else high = middle - 1;
  }
  return render(startOf(message, low) + CUT_MARK);
}

/** The first `length` UTF-16 units of a text, one fewer when that would split a surrogate pair. */
function startOf(text: string, length: number): string {
  const code = text.charCodeAt(length - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? length - 1 : length);
}

/** The request path as `instance` names it: cut when longer than INSTANCE_LIMIT_CHARACTERS. */
function instanceOf(path: string): string {
  return path.length > INSTANCE_LIMIT_CHARACTERS ? `${startOf(path, INSTANCE_LIMIT_CHARACTERS)}…` : path;
}

/**
 * The one place that decides the shape of an error answer, by the request path (contract §2): on the
 * two OAuth token endpoints RFC 6749 §5.2 `{ error, error_description }` as application/json with
 * Cache-Control: no-store; everywhere else application/problem+json in the shape of bank §2.8. No
 * body is larger than ERROR_BODY_LIMIT_BYTES.
 */
export function errorAnswer(exception: unknown, path: string): ErrorAnswer {
  const endpoint = tokenEndpointOf(path);
  if (endpoint) {
    const answer = oauthAnswer(exception, endpoint);
    return {
      status: answer.status,
      headers: { ...answer.headers, 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', Pragma: 'no-cache' },
      body: withinErrorBodyLimit((description) => JSON.stringify({ ...answer.body, error_description: description }), answer.body.error_description),
    };
  }
  const problem = toProblem(exception);
  const instance = instanceOf(path);
  return {
    status: problem.status,
    headers: { ...problem.headers, 'Content-Type': 'application/problem+json; charset=utf-8' },
    body: withinErrorBodyLimit((message) => JSON.stringify(problemBody({ ...problem, message }, instance)), problem.message),
  };
}

/**
 * The one exception filter: renders every error as errorAnswer shapes it, and writes an
 * Idempotency-Key replay (ReplayedAnswer) as it was kept. Errors raised before
 * routing (request gates, body parsers) come here too, through Nest's error handler; requests Node's
 * parser refuses are answered the same way by answerClientErrors.
 */
@Catch()
export class ProblemDetailsFilter implements ExceptionFilter {
  private readonly logger = new Logger('ProblemDetails');

  constructor(private readonly lifecycleRace: SandboxLifecycleRace) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<Request & RequestWithSandbox>();
    const response = http.getResponse<Response>();
    if (exception instanceof ReplayedAnswer) {
      // A kept answer, sent again as it was (contract §15), whatever its status.
      if (response.headersSent) return;
      const { status, headers, body } = exception.answer;
      response.status(status).set({ ...headers, [IDEMPOTENT_REPLAYED_HEADER]: 'true' }).send(body);
      return;
    }
    const path = requestPath(request);
    const answer = errorAnswer(exception, path);
    // An answer that may come from the sandbox being reset or deleted meanwhile is checked first (contract §13).
    const recheck = this.lifecycleRace.recheck(request, exception, answer.status);
    if (recheck === undefined) return this.send(exception, answer, path, response);
    recheck
      .then((told) => this.send(told, told === exception ? answer : errorAnswer(told, path), path, response))
      .catch((error: unknown) => this.logger.error({ err: error, path }, 'error answer not sent'));
  }

  private send(exception: unknown, answer: ErrorAnswer, path: string, response: Response): void {
    const expected = exception instanceof DomainError || (exception instanceof OAuthError && answer.status < 500);
    if (answer.status >= 500 && !expected) this.logger.error({ err: exception, path }, 'unhandled error');
    if (response.headersSent) return;
    response.status(answer.status).set(answer.headers).send(answer.body);
  }
}
