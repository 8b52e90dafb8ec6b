import { NotFoundException } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import { ValidationFailed } from '../errors/domain-error';
import { asksForHtml } from '../http/html';
import { isUuid } from '../values/uuid.pipe';
import { DEFAULT_SANDBOX_ID } from './sandbox-context';
import { type SandboxRegistry, UnknownSandbox } from './sandbox-registry';

/** The sandbox a request addresses, resolved at the edge before anything else reads it. */
export interface RequestWithSandbox extends IncomingMessage {
  sandboxId?: string;
  /** `/sandboxes/{id}` when the request came under a sandbox's prefix (stripped from `url`). */
  sandboxPrefix?: string;
  /** The path as the client sent it, before the prefix was stripped (express sets it too). */
  originalUrl?: string;
  /**
   * The sandbox's generation as this instance knew it when the request began (after the clock's
   * sync): a reset since then moved it (SandboxLifecycleRace, SandboxCache).
   */
  sandboxGeneration?: string;
}

/** The generation the request began in (undefined: not an HTTP request, or not that far yet). */
export function generationAtStart(request: RequestWithSandbox | undefined): string | undefined {
  return request?.sandboxGeneration;
}

/** `/sandboxes/{id}` and what follows it (case-insensitive, as Express routes). */
const PREFIX = /^\/sandboxes\/([^/?]*)(\/[^?]*)?(\?.*)?$/i;

/**
 * The lifecycle routes live at the root (contract §13): `GET|DELETE /sandboxes/{id}` (a trailing
 * slash allowed) and `POST /sandboxes/{id}/reset` are not a path inside the sandbox.
 */
function isLifecyclePath(method: string | undefined, rest: string | undefined): boolean {
  return rest === undefined || rest === '/' || (method === 'POST' && /^\/reset\/?$/i.test(rest));
}

/**
 * `GET /sandboxes/{id}` asked by a browser is that sandbox's console, its `/` (contract §13, §14).
 * A browser names text/html; a client that names no type or only `*\/*` (curl, SDKs) keeps the
 * lifecycle route's JSON, as before the console existed.
 */
function isConsolePage(req: IncomingMessage, rest: string | undefined): boolean {
  if ((rest !== undefined && rest !== '/') || (req.method !== 'GET' && req.method !== 'HEAD')) return false;
  return asksForHtml(req);
}

/** The service's own paths, at the root only (contract §13): under a prefix they are an unknown route. */
const ROOT_ONLY = /^\/(health|sandboxes)(\/|$)/i;

/** The sandbox id of a path segment: `default` or a UUID (lower-cased); else 400 naming sandbox_id. */
export function parseSandboxId(segment: string): string {
  if (segment.toLowerCase() === DEFAULT_SANDBOX_ID) return DEFAULT_SANDBOX_ID;
  if (isUuid(segment)) return segment.toLowerCase();
  throw new ValidationFailed(`sandbox_id must be "default" or a UUID (got ${JSON.stringify(safeSegment(segment))})`);
}

function safeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment).slice(0, 100);
  } catch {
    return segment.slice(0, 100);
  }
}

/**
 * The one place that decides a request's sandbox, once, at the edge (later calls read it back).
 * A request to `/sandboxes/{id}/<rest>` is served as `/<rest>` in sandbox `{id}` (contract §13
 * Addressing): `req.url` is rewritten, `req.originalUrl` keeps what the client sent (answers name
 * it as `instance`); `/sandboxes/{id}` asked by a browser is that sandbox's `/`, its console.
 * Everything else, the lifecycle routes included, is the default sandbox's.
 * A malformed id is 400 VALIDATION_FAILED naming sandbox_id; `/health` and the lifecycle under a
 * prefix are 404 as an unknown route.
 */
export function resolveRequestSandbox(req: RequestWithSandbox): string {
  if (req.sandboxId !== undefined) return req.sandboxId;
  const url = req.url ?? '/';
  const prefixed = PREFIX.exec(url);
  if (!prefixed || (isLifecyclePath(req.method, prefixed[2]) && !isConsolePage(req, prefixed[2]))) {
    req.sandboxId = DEFAULT_SANDBOX_ID;
    return req.sandboxId;
  }
  const sandboxId = parseSandboxId(prefixed[1]);
  const rest = prefixed[2] ?? '/';
  if (ROOT_ONLY.test(rest)) throw new NotFoundException();
  req.originalUrl ??= url;
  req.url = `${rest}${prefixed[3] ?? ''}`;
  req.sandboxPrefix = `/sandboxes/${prefixed[1]}`;
  req.sandboxId = sandboxId;
  return sandboxId;
}

/** The prefix a request came under (`/sandboxes/{id}`), or undefined at the root. */
export function sandboxPrefixOf(req: RequestWithSandbox): string | undefined {
  return req.sandboxPrefix;
}

/**
 * The edge middleware of the routing: resolves the request's sandbox and answers 404 NOT_FOUND when
 * a well-formed id names no sandbox (one cached lookup, SandboxRegistry.exists); a request to a
 * sandbox (the default one's too) is its last use (`last_used_at`, written at most once a minute
 * per instance).
 * A sandbox found gone (deleted, on this instance or another) is forgotten by `forget` (the clock's
 * copies and the caches keyed by it).
 */
export function routeToSandbox(registry: SandboxRegistry, forget: (sandboxId: string) => void) {
  return (req: Request & RequestWithSandbox, _res: Response, next: NextFunction): void => {
    let sandboxId: string;
    try {
      sandboxId = resolveRequestSandbox(req);
    } catch (error) {
      // Answered in the default sandbox's context: nothing of an unknown sandbox is read.
      req.sandboxId = DEFAULT_SANDBOX_ID;
      return next(error);
    }
    if (sandboxId === DEFAULT_SANDBOX_ID) {
      // Its last use too (GET /sandboxes lists it), at most one write a minute per instance.
      const touching = registry.touch(sandboxId);
      if (touching) touching.then(() => next(), next);
      else next();
      return;
    }
    registry.exists(sandboxId).then(async (found) => {
      if (!found) {
        forget(sandboxId);
        req.sandboxId = DEFAULT_SANDBOX_ID;
        return next(new UnknownSandbox(sandboxId));
      }
      await registry.touch(sandboxId);
      next();
    }).catch(next);
  };
}
