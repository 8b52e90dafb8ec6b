import { Injectable } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { NextFunction, Request, Response } from 'express';
import { SandboxClock } from '../clock/sandbox-clock';
import { SandboxConfig } from '../config/sandbox-config';
import { refusedBodyOf } from '../http/input-limits';
import { hasBody } from '../http/request-body';
import { DOCS_PATH, OPENAPI_JSON_PATH } from '../openapi/openapi';
import { parseSandboxId, type RequestWithSandbox } from '../sandbox/request-sandbox';
import type { Hint } from './hint-catalogue';
import { nextArrivalMicros } from './journal-arrival';
import { JournalCertificates } from './journal-certificates';
import { redactText, redactUrl } from '../redaction/redaction';
import type { NewJournalEntry } from './journal-entry';
import { recordedBody, recordedStringifiedJson, redactHeaders, redactQuery, type CertificateDescriber } from './journal-redaction';
import { JournalWriter } from './journal-writer';
import { RequestCaller } from './request-caller';
import { RequestHints } from './request-hints';

/** The header that repeats a response's hint codes (contract §14). */
export const SANDBOX_HINTS_HEADER = 'Sandbox-Hints';
/** The journal's own reads (contract §14: not recorded). */
export const JOURNAL_READ_PATHS = /^\/(admin|sandbox)\/requests(\/|$)/i;
/** A response body larger than this is not kept whole, so not parsed: it is described by type and size. */
const CAPTURE_LIMIT_BYTES = 64 * 1024;

/** Paths inside a sandbox that are not recorded (contract §14). */
const NOT_RECORDED = [/^\/admin(\/|$)/i, /^\/health(\/|$)/i, new RegExp(`^${DOCS_PATH}(/|$)`, 'i'), new RegExp(`^${OPENAPI_JSON_PATH.replace('.', '\\.')}$`, 'i'), JOURNAL_READ_PATHS];

/** One request being recorded. */
interface Recording {
  arrivalMicros: number;
  startedMs: number;
  hints: Hint[];
  /** What the answer wrote, as written (express writes a JSON answer as one string). */
  chunks: Array<string | Buffer>;
  bytes: number;
  /** The answer was written by `res.json`: its text is JSON.stringify's (see recordedStringifiedJson). */
  stringified: boolean;
  /** `end` was called: the answer is complete. */
  ended: boolean;
  /** The answer is an Idempotency-Key replay (contract §15): no hints, `replayed: true`. */
  replayed: boolean;
}

/**
 * Where a request keeps its recording: a property of the request object, set on every request at the
 * same point (so every request has the same shape) rather than a WeakMap entry, which costs a hash
 * lookup on each of the answer's writes and extra work at every garbage collection (issue 19).
 */
const RECORDING = Symbol('journal recording');
type Recorded = IncomingMessage & { [RECORDING]?: Recording };

function recordingOfRequest(request: IncomingMessage): Recording | undefined {
  return (request as Recorded)[RECORDING];
}

/**
 * Marks the request's answer as a replay of a kept answer (contract §15): it carries no
 * Sandbox-Hints (the replay ran nothing) and its entry says `"replayed": true` (contract §14).
 */
export function markReplayed(request: IncomingMessage): void {
  const recording = recordingOfRequest(request);
  if (!recording) return;
  recording.replayed = true;
  recording.hints.length = 0;
}

/** The recorded request's hint list, for its sandbox context (undefined: not recorded). */
export function hintsOf(request: IncomingMessage): Hint[] | undefined {
  return recordingOfRequest(request)?.hints;
}

/**
 * The journal's edge (contract §14): notes a request's arrival, captures what the answer writes,
 * sets `Sandbox-Hints` before the headers go out, and once the answer has gone hands the writer a
 * redacted entry. Nothing here runs between the request and its answer but the capture itself.
 */
@Injectable()
export class JournalRecorder {
  /** Answers ended in this turn of the event loop, their entries not built yet. */
  private endedAnswers: Array<{ req: Request; res: Response; recording: Recording }> = [];

  constructor(
    private readonly config: SandboxConfig,
    private readonly writer: JournalWriter,
    private readonly certificates: JournalCertificates,
    private readonly clock: SandboxClock,
  ) {}

  /**
   * Installs the capture on the app's response prototype (express's `app.response`, which every
   * answer of this app inherits from), once: each method finds its answer's recording. Methods set
   * on every response object instead would change its shape and slow each later use of it (issue
   * 16, measured: most of what recording cost a request).
   */
  install(app: NestExpressApplication): void {
    if (!this.config.journal) return;
    const prototype = (app.getHttpAdapter().getInstance() as { response: Response }).response;
    const onEnded = (req: Request, res: Response, recording: Recording) => this.ended(req, res, recording);
    // The inherited methods: express's json, Node's writeHead, write and end.
    const { json, writeHead, write, end } = prototype as unknown as Record<'json' | 'writeHead' | 'write' | 'end', (...args: unknown[]) => unknown>;
    Object.assign(prototype, {
      json(this: Response, ...args: unknown[]) {
        const recording = recordingOf(this);
        if (recording) recording.stringified = true;
        return json.apply(this, args);
      },
      // Node sends headers through writeHead, also implicitly on the first write: the last moment to add one.
      writeHead(this: Response, ...args: unknown[]) {
        const recording = recordingOf(this);
        const header = recording && !recording.replayed ? RequestHints.header(recording.hints) : undefined;
        if (header && !this.headersSent) this.setHeader(SANDBOX_HINTS_HEADER, header);
        return writeHead.apply(this, args);
      },
      write(this: Response, ...args: unknown[]) {
        const recording = recordingOf(this);
        if (recording) keep(recording, args[0], args[1]);
        return write.apply(this, args);
      },
      end(this: Response, ...args: unknown[]) {
        const recording = recordingOf(this);
        if (!recording || recording.ended) return end.apply(this, args);
        keep(recording, args[0], args[1]);
        recording.ended = true;
        const ended = end.apply(this, args);
        onEnded(this.req, this, recording);
        return ended;
      },
    });
  }

  /**
   * An answer has been handed to Node: its entry is built after the current turn of the event loop
   * (one timer for all the answers of a turn), so building it delays no answer.
   */
  private ended(req: Request, res: Response, recording: Recording): void {
    this.endedAnswers.push({ req, res, recording });
    if (this.endedAnswers.length === 1) setImmediate(this.finishEnded);
  }

  private readonly finishEnded = (): void => {
    const answers = this.endedAnswers;
    this.endedAnswers = [];
    for (const { req, res, recording } of answers) this.finish(req, res, recording);
  };

  /** The middleware, right after the sandbox routing. */
  readonly begin = (req: Request, _res: Response, next: NextFunction): void => {
    if (!this.config.journal) return next();
    // Arrival is real time (contract §14: since/until and retention are real), the duration monotonic.
    const recording: Recording = { arrivalMicros: nextArrivalMicros(), startedMs: performance.now(), hints: [], chunks: [], bytes: 0, stringified: false, ended: false, replayed: false };
    (req as Recorded)[RECORDING] = recording;
    next();
  };

  private finish(req: Request & RequestWithSandbox, res: Response, recording: Recording): void {
    try {
      const path = sandboxPath(req);
      if (path === undefined || !recordedPath(req.method, path)) return;
      const redacted = this.redacted(req, res, path, recording);
      if (redacted === undefined) return;
      const sandboxId = req.sandboxId as string;
      const durationMs = Math.max(0, Math.round(performance.now() - recording.startedMs));
      // The sandbox clock at arrival: its cached reading now, less the time the request took while it runs
      // (a frozen clock read the same then).
      const clock = this.clock.readingOf(sandboxId);
      const at = clock.frozen ? clock.now : new Date(clock.now.getTime() - durationMs);
      this.writer.record({
        sandboxId,
        requestId: String(req.headers['x-request-id'] ?? ''),
        arrivalMicros: recording.arrivalMicros,
        at,
        method: req.method,
        ...redacted,
        status: res.statusCode,
        durationMs,
        reasonCode: res.statusCode >= 400 ? reasonCodeOf(redacted.response) : null,
        replayed: recording.replayed,
      });
    } catch (error) {
      this.writer.lose(1, 'journal entry could not be built: dropped', error);
    }
  }

  /**
   * What the entry keeps of what the client sent and got, redacted (contract §14); undefined when
   * redacting failed: the entry is dropped and counted, never kept unredacted (nor its error logged,
   * whose message may quote the value).
   */
  private redacted(req: Request, res: Response, path: string, recording: Recording): RedactedParts | undefined {
    try {
      const describe = this.certificates.describe;
      const response = responseBody(res, recording, describe);
      // A body refused unparsed for its shape (contract §2, bounded work) is recorded from its first values.
      const requestBody = hasBody(req) ? recordedBody(req.body ?? refusedBodyOf(req), req.headers['content-type'], describe, declaredLength(req)) : '';
      const caller = RequestCaller.of(req);
      return {
        // The path as sent may carry a fragment or a parameter of its own (`/x#access_token=…`).
        path: redactUrl(path),
        query: redactQuery(queryOf(req), describe),
        caller: caller.id === undefined ? caller : { ...caller, id: redactText(caller.id) },
        request: `{"headers":${JSON.stringify(redactHeaders(req.headers, describe))}${requestBody && `,${requestBody}`}}`,
        response: `{${response}}`,
        hints: recording.hints.length === 0 ? recording.hints : recording.hints.map(redactedHint),
      };
    } catch (error) {
      this.writer.dropUnredacted(error);
      return undefined;
    }
  }
}

/** A hint as kept: its message may quote what the client sent (a scope). */
function redactedHint(hint: Hint): Hint {
  const message = redactText(hint.message);
  return message === hint.message ? hint : { ...hint, message };
}

/** The parts of an entry that carry what the client sent or got. */
type RedactedParts = Pick<NewJournalEntry, 'path' | 'query' | 'caller' | 'request' | 'response' | 'hints'>;

/** The recording of the answer's request (express links each answer to its request). */
function recordingOf(res: Response): Recording | undefined {
  return res.req ? recordingOfRequest(res.req) : undefined;
}

/** Keeps what the answer writes, up to the capture limit. */
function keep(recording: Recording, chunk: unknown, encoding: unknown): void {
  if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
  const text = typeof chunk === 'string' && (encoding === undefined || encoding === 'utf8' || encoding === 'utf-8' || typeof encoding === 'function');
  const kept = text ? chunk : Buffer.isBuffer(chunk) ? chunk : typeof chunk === 'string' ? Buffer.from(chunk, encoding as BufferEncoding) : Buffer.from(chunk as Uint8Array);
  recording.bytes += typeof kept === 'string' ? Buffer.byteLength(kept) : kept.length;
  if (recording.bytes <= CAPTURE_LIMIT_BYTES) recording.chunks.push(kept);
}

/**
 * The path inside the request's sandbox, as the client sent it (without the `/sandboxes/{id}`
 * prefix); undefined for what is no sandbox's request: the lifecycle routes at the root, a
 * malformed or unknown sandbox id.
 */
function sandboxPath(req: Request & RequestWithSandbox): string | undefined {
  const sent = (req.originalUrl ?? req.url).split('?')[0];
  if (req.sandboxId === undefined) return undefined;
  if (req.sandboxPrefix === undefined) return /^\/sandboxes(\/|$)/i.test(sent) ? undefined : sent;
  try {
    // An unknown sandbox's request was answered in the default sandbox's name: it is no one's.
    if (parseSandboxId(req.sandboxPrefix.slice('/sandboxes/'.length)) !== req.sandboxId) return undefined;
  } catch {
    return undefined;
  }
  return sent.slice(req.sandboxPrefix.length) || '/';
}

function recordedPath(method: string, path: string): boolean {
  // GET / is the console page (contract §14).
  if (path === '/' && (method === 'GET' || method === 'HEAD')) return false;
  return !NOT_RECORDED.some((pattern) => pattern.test(path));
}

function queryOf(req: Request): Record<string, unknown> {
  const query: unknown = req.query;
  // redactQuery copies it.
  return query && typeof query === 'object' ? (query as Record<string, unknown>) : {};
}

/**
 * The body's size as the client sent it, when it said so (body-parser refuses a body of another
 * length); not when chunked, nor compressed (its Content-Length is not the body's).
 */
function declaredLength(req: Request): number | undefined {
  if (req.headers['transfer-encoding'] !== undefined) return undefined;
  const encoding = req.headers['content-encoding'];
  if (encoding !== undefined && encoding.trim().toLowerCase() !== 'identity') return undefined;
  const declared = Number(req.headers['content-length']);
  return Number.isFinite(declared) ? declared : undefined;
}

/** The response's recorded body members (see recordedBody). */
function responseBody(res: Response, recording: Recording, describe: CertificateDescriber): string {
  const type = res.getHeader('content-type');
  const contentType = typeof type === 'string' ? type : undefined;
  if (recording.bytes === 0) return '';
  if (recording.bytes > CAPTURE_LIMIT_BYTES) {
    return `"body":${JSON.stringify(`[${(contentType ?? 'no content type').split(';')[0]}, ${recording.bytes} bytes]`)},"body_truncated":true`;
  }
  const { chunks } = recording;
  const text = chunks.length === 1 && typeof chunks[0] === 'string' ? chunks[0] : Buffer.concat(chunks.map((chunk) => (typeof chunk === 'string' ? Buffer.from(chunk) : chunk))).toString('utf8');
  return (recording.stringified ? recordedStringifiedJson(text) : undefined) ?? recordedBody(text, contentType, describe);
}

/** The code of a problem answer (`reason.code`), or of an RFC 6749 error answer (`error`), from its recorded `response` (JSON text). */
function reasonCodeOf(response: string): string | null {
  if (!response.startsWith('{"body":{')) return null;
  const { body } = JSON.parse(response) as { body: { reason?: { code?: unknown }; error?: unknown } };
  const { reason, error } = body;
  if (reason && typeof reason.code === 'string') return reason.code;
  return typeof error === 'string' ? error : null;
}
