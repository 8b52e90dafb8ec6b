import { Injectable } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import { SandboxClock } from '../clock/sandbox-clock';
import { SandboxConfig } from '../config/sandbox-config';
import { DOCS_PATH, OPENAPI_JSON_PATH } from '../openapi/openapi';
import { parseSandboxId, type RequestWithSandbox } from '../sandbox/request-sandbox';
import { SandboxContext } from '../sandbox/sandbox-context';
import type { Hint } from './hint-catalogue';
import { JournalCertificates } from './journal-certificates';
import { redactBody, redactHeaders, redactQuery, type RecordedBody } from './journal-redaction';
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
  arrivedAt: Date;
  startedMs: number;
  hints: Hint[];
  chunks: Buffer[];
  bytes: number;
  /** The answer is an Idempotency-Key replay (contract §15): no hints, `replayed: true`. */
  replayed: boolean;
}

const recordings = new WeakMap<IncomingMessage, Recording>();

/**
 * Marks the request's answer as a replay of a kept answer (contract §15): it carries no
 * Sandbox-Hints (the replay ran nothing) and its entry says `"replayed": true` (contract §14).
 */
export function markReplayed(request: IncomingMessage): void {
  const recording = recordings.get(request);
  if (!recording) return;
  recording.replayed = true;
  recording.hints.length = 0;
}

/** The recorded request's hint list, for its sandbox context (undefined: not recorded). */
export function hintsOf(request: IncomingMessage): Hint[] | undefined {
  return recordings.get(request)?.hints;
}

/**
 * The journal's edge (contract §14): notes a request's arrival, captures what the answer writes,
 * sets `Sandbox-Hints` before the headers go out, and once the answer has gone hands the writer a
 * redacted entry. Nothing here runs between the request and its answer but the capture itself.
 */
@Injectable()
export class JournalRecorder {
  constructor(
    private readonly config: SandboxConfig,
    private readonly writer: JournalWriter,
    private readonly certificates: JournalCertificates,
    private readonly clock: SandboxClock,
  ) {}

  /** The middleware, right after the sandbox routing. */
  readonly begin = (req: Request, res: Response, next: NextFunction): void => {
    if (!this.config.journal) return next();
    // Arrival is real time (contract §14: since/until and retention are real), the duration monotonic.
    const recording: Recording = { arrivedAt: new Date(), startedMs: performance.now(), hints: [], chunks: [], bytes: 0, replayed: false };
    recordings.set(req, recording);
    capture(res, recording);
    res.once('finish', () => setImmediate(() => this.finish(req, res, recording)));
    next();
  };

  private finish(req: Request & RequestWithSandbox, res: Response, recording: Recording): void {
    try {
      const path = sandboxPath(req);
      if (path === undefined || !recordedPath(req.method, path)) return;
      const sandboxId = req.sandboxId as string;
      const durationMs = Math.max(0, Math.round(performance.now() - recording.startedMs));
      const describe = this.certificates.describe;
      const response = responseBody(res, recording, describe);
      const request: Record<string, unknown> = { headers: redactHeaders(req.headers, describe), ...(hasBody(req) ? redactBody(req.body, req.headers['content-type'], describe) : {}) };
      // The sandbox clock at arrival: its cached reading now, less the time the request took while it runs
      // (a frozen clock read the same then).
      const at = SandboxContext.run(sandboxId, () => (this.clock.frozen ? this.clock.now() : new Date(this.clock.now().getTime() - durationMs)));
      this.writer.record({
        sandboxId,
        requestId: String(req.headers['x-request-id'] ?? ''),
        arrivedAt: recording.arrivedAt,
        at,
        method: req.method,
        path,
        query: redactQuery(queryOf(req), describe),
        status: res.statusCode,
        durationMs,
        caller: RequestCaller.of(req),
        reasonCode: res.statusCode >= 400 ? reasonCodeOf(response.body) : null,
        request,
        response: { ...response },
        hints: recording.hints,
        replayed: recording.replayed,
      });
    } catch (error) {
      this.writer.lose(1, 'journal entry could not be built: dropped', error);
    }
  }
}

/** Keeps what the answer writes (up to the capture limit) and adds Sandbox-Hints to its headers. */
function capture(res: ServerResponse, recording: Recording): void {
  const keep = (chunk: unknown, encoding: unknown) => {
    if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
    const buffer = Buffer.isBuffer(chunk) ? chunk : typeof chunk === 'string' ? Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8') : Buffer.from(chunk as Uint8Array);
    recording.bytes += buffer.length;
    if (recording.bytes <= CAPTURE_LIMIT_BYTES) recording.chunks.push(buffer);
  };
  // The originals, bound to this response (the wrappers below replace them on it alone).
  const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  // Node sends headers through writeHead, also implicitly on the first write: the last moment to add one.
  res.writeHead = (...args: unknown[]) => {
    const header = recording.replayed ? undefined : RequestHints.header(recording.hints);
    if (header && !res.headersSent) res.setHeader(SANDBOX_HINTS_HEADER, header);
    return writeHead(...args);
  };
  res.write = ((chunk: unknown, ...rest: unknown[]) => {
    keep(chunk, rest[0]);
    return write(chunk, ...rest);
  }) as typeof res.write;
  res.end = ((chunk?: unknown, ...rest: unknown[]) => {
    keep(chunk, rest[0]);
    return end(chunk, ...rest);
  }) as typeof res.end;
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
  return query && typeof query === 'object' ? { ...(query as Record<string, unknown>) } : {};
}

/** Whether the request carried a body (the parsers leave an empty object or nothing otherwise). */
function hasBody(req: Request): boolean {
  return req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
}

function responseBody(res: Response, recording: Recording, describe: Parameters<typeof redactBody>[2]): RecordedBody {
  const type = res.getHeader('content-type');
  const contentType = typeof type === 'string' ? type : undefined;
  if (recording.bytes === 0) return {};
  if (recording.bytes > CAPTURE_LIMIT_BYTES) {
    return { body: `[${(contentType ?? 'no content type').split(';')[0]}, ${recording.bytes} bytes]`, body_truncated: true };
  }
  return redactBody(Buffer.concat(recording.chunks).toString('utf8'), contentType, describe);
}

/** The code of a problem answer (`reason.code`), or of an RFC 6749 error answer (`error`). */
function reasonCodeOf(body: unknown): string | null {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return null;
  const { reason, error } = body as { reason?: { code?: unknown }; error?: unknown };
  if (reason && typeof reason.code === 'string') return reason.code;
  return typeof error === 'string' ? error : null;
}
