import { CallHandler, ExecutionContext, Injectable, Logger, NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { randomUUID, timingSafeEqual } from 'node:crypto';
import type { Observable } from 'rxjs';
import type { RequestWithPrincipal } from '../access/access-strategy';
import { Clock } from '../clock/clock';
import { DomainError } from '../errors/domain-error';
import { markReplayed } from '../journal/journal-recorder';
import { RequestCaller } from '../journal/request-caller';
import { SandboxContext } from '../sandbox/sandbox-context';
import { IdempotencyGate } from './idempotency-gate';
import { IDEMPOTENCY_KEY_HEADER, IdempotencySecrets, type KeptAnswer, readIdempotencyKey } from './idempotency-key';
import { LEASE_SECONDS, IdempotencyStore, type RecordOwner } from './idempotency.store';
import { ReplayedAnswer } from './replayed-answer';

/** The route metadata `@Idempotent()` sets: its options. */
export const IDEMPOTENT_ROUTE = 'sandbox:idempotent-route';

export interface IdempotentOptions {
  /**
   * `service`: the records belong to the service, not to the request's sandbox (`POST /sandboxes`,
   * contract §15), and expire on real time.
   */
  owner?: 'sandbox' | 'service';
}

/** How long an answer is kept: 24 hours of the sandbox clock (contract §15). */
const KEEP_MS = 24 * 60 * 60 * 1000;
/** A running claim's lease is renewed this often, well inside LEASE_SECONDS. */
const RENEW_MS = (LEASE_SECONDS * 1000) / 3;
/** A request that never answers stops renewing after this, so its key frees itself in the end. */
const MAX_RENEW_MS = 10 * 60 * 1000;
/** The headers a client needs, kept and replayed with the body (contract §15). */
const KEPT_HEADERS = ['Content-Type', 'Location', 'Retry-After', 'Deprecation', 'Sunset', 'Link'] as const;
/** Secrets shown once (contract §8, §13): never kept, so a replay is the answer without them. */
export const SHOWN_ONCE_FIELDS: ReadonlySet<string> = new Set(['api_key', 'admin_key', 'demo_partner_key']);

/**
 * Idempotency-Key on the routes marked `@Idempotent()` (contract §15), which binds it: it runs after
 * the guards (credentials, header checks) and never on a route without the mark; without the header it
 * does nothing at all (a malformed header is 400 here). With it, once the pipes have validated the
 * input (the handler passes IdempotencyGate), one statement claims the key (committed before the
 * use case, so a duplicate on any instance sees it), or finds the record: another request's → 422,
 * still running → 409, a kept answer → replayed by the exception filter and nothing else runs. The
 * answer is kept (encrypted) when it is 2xx, 404 or 409, else the claim is deleted so the key can
 * be used again.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  private readonly logger = new Logger('Idempotency');

  constructor(
    private readonly reflector: Reflector,
    private readonly store: IdempotencyStore,
    private readonly clock: Clock,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const options = this.reflector.get<IdempotentOptions | undefined>(IDEMPOTENT_ROUTE, context.getHandler());
    if (!options) return next.handle();
    const request = context.switchToHttp().getRequest<Request & RequestWithPrincipal>();
    const key = readIdempotencyKey(request.headers[IDEMPOTENCY_KEY_HEADER.toLowerCase()]);
    if (key === undefined) return next.handle();
    const response = context.switchToHttp().getResponse<Response>();
    let passed: Promise<void> | undefined;
    // The handler passes the gate after the pipes validated its input (IdempotencyGate).
    return IdempotencyGate.run(() => (passed ??= this.claimOrReplay(request, response, options, key)), () => next.handle());
  }

  /** Claims the key for this request, or throws what the record found says: 422, 409 or the replay. */
  private async claimOrReplay(request: Request & RequestWithPrincipal, response: Response, options: IdempotentOptions, key: string): Promise<void> {
    const service = options.owner === 'service';
    const sandboxId = service ? null : SandboxContext.sandboxId;
    const secrets = new IdempotencySecrets(sandboxId ?? '', callerOf(request, service), key);
    const sandboxUser = request.headers['x-sandbox-user'];
    const fingerprint = secrets.fingerprint({
      method: request.method,
      path: request.originalUrl ?? request.url,
      body: request.body,
      sandboxUser: Array.isArray(sandboxUser) ? sandboxUser.join(', ') : sandboxUser,
    });
    const now = service ? null : this.clock.now();
    const owner: RecordOwner = { sandboxId, lookup: secrets.lookup };
    const holder = randomUUID();
    const found = await this.store.claim(owner, fingerprint, holder, now, now && new Date(now.getTime() + KEEP_MS));
    if (found.claimed) {
      this.keepAnswer(response, owner, holder, secrets);
      return;
    }
    if (found.fingerprint.length !== fingerprint.length || !timingSafeEqual(found.fingerprint, fingerprint)) {
      throw new DomainError(
        'IDEMPOTENCY_KEY_REUSED',
        `This ${IDEMPOTENCY_KEY_HEADER} was first sent with another method, path, body or X-Sandbox-User: use a new key for a new request.`,
      );
    }
    if (found.answer === null) {
      throw new DomainError('IDEMPOTENCY_KEY_IN_USE', `The first request with this ${IDEMPOTENCY_KEY_HEADER} is still running: retry when it has answered.`);
    }
    markReplayed(request);
    throw new ReplayedAnswer(secrets.open(found.answer));
  }

  /**
   * Renews the claim while the use case runs, and at the answer's end (before it goes out, so a
   * retry right after it finds it kept) keeps it or releases the key. A request that never answers
   * (a crash) leaves its claim to expire with its lease.
   */
  private keepAnswer(response: Response, owner: RecordOwner, holder: string, secrets: IdempotencySecrets): void {
    const started = Date.now();
    const renewal = setInterval(() => {
      if (Date.now() - started > MAX_RENEW_MS) return clearInterval(renewal);
      this.store.renew(owner, holder).catch((error: unknown) => this.logger.warn({ err: error }, 'Idempotency-Key lease not renewed'));
    }, RENEW_MS);
    renewal.unref();
    const chunks: Buffer[] = [];
    const keep = (chunk: unknown, encoding: unknown) => {
      if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
      chunks.push(Buffer.isBuffer(chunk) ? chunk : typeof chunk === 'string' ? Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8') : Buffer.from(chunk as Uint8Array));
    };
    const write = response.write.bind(response) as (...args: unknown[]) => boolean;
    const end = response.end.bind(response) as (...args: unknown[]) => Response;
    let settled = false;
    response.write = ((chunk: unknown, ...rest: unknown[]) => {
      if (!settled) keep(chunk, rest[0]);
      return write(chunk, ...rest);
    }) as typeof response.write;
    response.end = ((chunk?: unknown, ...rest: unknown[]) => {
      if (settled) return end(chunk, ...rest);
      settled = true;
      clearInterval(renewal);
      keep(chunk, rest[0]);
      const answer = keptAnswer(response, Buffer.concat(chunks));
      // Kept for 24 hours from the answer, on the sandbox clock as it is now (a clock advance answers on its moved clock).
      const expiresAt = owner.sandboxId === null ? null : new Date(SandboxContext.run(owner.sandboxId, () => this.clock.now()).getTime() + KEEP_MS);
      const done = answer ? this.store.complete(owner, holder, secrets.seal(answer), expiresAt) : this.store.release(owner, holder);
      done
        .catch((error: unknown) => this.logger.error({ err: error }, 'Idempotency-Key record not completed: the claim expires with its lease'))
        .finally(() => end(chunk, ...rest));
      return response;
    }) as typeof response.end;
  }
}

/**
 * Who sent the key (contract §15): the TPP on PSD2 routes and the partner on partner routes, as the
 * request identified them; on admin routes the admin of the request's sandbox; for the service's
 * own records the operator, or the caller's IP in self-service.
 */
function callerOf(request: Request & RequestWithPrincipal, service: boolean): string {
  const principal = request.principal;
  if (principal?.kind === 'self-service') return `ip:${principal.ip}`;
  if (principal?.kind === 'admin') return service ? 'operator' : 'admin';
  const caller = RequestCaller.of(request);
  if (caller.kind === 'anonymous' || caller.id === undefined) {
    throw new Error(`An @Idempotent() route identified no caller (${request.method} ${request.path}): its access policy must name one`);
  }
  return `${caller.kind}:${caller.id}`;
}

/** Kept: 2xx, 404 and 409 (contract §15); the body without the secrets shown once. Else null. */
function keptAnswer(response: Response, body: Buffer): KeptAnswer | null {
  const status = response.statusCode;
  if (!((status >= 200 && status < 300) || status === 404 || status === 409)) return null;
  const headers: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const value = response.getHeader(name);
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  return { status, headers, body: withoutShownOnce(body, headers['Content-Type']) };
}

function withoutShownOnce(body: Buffer, contentType: string | undefined): Buffer {
  if (!contentType || !/\bjson\b/i.test(contentType) || body.length === 0) return body;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return body;
  }
  let removed = false;
  const strip = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(strip);
    if (!value || typeof value !== 'object') return value;
    const out: Record<string, unknown> = {};
    for (const [name, inner] of Object.entries(value as Record<string, unknown>)) {
      if (SHOWN_ONCE_FIELDS.has(name)) removed = true;
      else out[name] = strip(inner);
    }
    return out;
  };
  const stripped = strip(parsed);
  return removed ? Buffer.from(JSON.stringify(stripped), 'utf8') : body;
}
