import type { IncomingMessage } from 'node:http';

/** Whether the request carries a body: a length above zero, or a chunked one (the parsers leave an empty object or nothing otherwise). */
export function hasBody(request: IncomingMessage): boolean {
  return request.headers['transfer-encoding'] !== undefined || Number(request.headers['content-length'] ?? 0) > 0;
}
