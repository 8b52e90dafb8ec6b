import type { IncomingMessage } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import { DEFAULT_SANDBOX_ID, SandboxContext } from './sandbox-context';

/** The sandbox a request addresses, resolved at the edge before anything else reads it. */
export interface RequestWithSandbox extends IncomingMessage {
  sandboxId?: string;
}

/**
 * The one place that decides a request's sandbox, once, at the edge (later calls read it back).
 * Today every request is the default sandbox's; the `/sandboxes/{id}` prefix routing (contract §13
 * Addressing) sets the id here (and strips the prefix) when it comes.
 */
export function resolveRequestSandbox(req: RequestWithSandbox): string {
  req.sandboxId ??= DEFAULT_SANDBOX_ID;
  return req.sandboxId;
}

/**
 * Enters the request's sandbox context for everything after it (Nest middleware, guards, pipes,
 * handlers, interceptors, filters: express calls them inside next()). Registered after the body
 * parsers, which lose AsyncLocalStorage contexts entered before them.
 */
export function enterRequestSandbox(req: Request, _res: Response, next: NextFunction): void {
  SandboxContext.run(resolveRequestSandbox(req), next);
}
