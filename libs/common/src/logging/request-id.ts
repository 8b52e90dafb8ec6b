import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The request's id, assigned once: the caller's X-Request-Id when well-formed, else a new UUID, sent
 * back as X-Request-Id. Called before the request gates (so a downtime, retired-path or body-size
 * answer carries it too, contract §14: every response) and by pino-http, which finds the same id.
 */
export function assignRequestId(req: IncomingMessage, res: ServerResponse): string {
  const id = requestIdFor(req.headers['x-request-id']);
  req.headers['x-request-id'] = id;
  if (!res.headersSent) res.setHeader('X-Request-Id', id);
  return id;
}

/** The caller's X-Request-Id value when it is well-formed (contract §14), else a new UUID. */
export function requestIdFor(given: unknown): string {
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
}
