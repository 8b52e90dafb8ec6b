import { maxHeaderSize, type Server, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { DomainError, ValidationFailed } from '../errors/domain-error';
import { errorAnswer } from '../errors/problem-details.filter';
import { requestIdFor } from '../logging/request-id';

/**
 * Why Node's HTTP parser refused a request, in the words of contract §2. llhttp's `reason` is a fixed
 * text that names the part at fault ("Transfer-Encoding can't be present with Content-Length",
 * "Invalid character in Content-Length"), never the client's bytes.
 */
function failureOf(error: { code?: string; reason?: unknown }): DomainError {
  switch (error.code) {
    case 'HPE_INVALID_URL':
      return new ValidationFailed('The request path is malformed: send it as ASCII, percent-encoding every other byte (RFC 3986).');
    case 'HPE_HEADER_OVERFLOW':
      return new ValidationFailed(`The request headers are larger than the limit of ${maxHeaderSize} bytes.`);
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new ValidationFailed('The request was not received completely in time.');
  }
  const reason = typeof error.reason === 'string' ? error.reason.replace(/[^ -~]/g, '').slice(0, 200) : error.code;
  return new ValidationFailed(`The request is not valid HTTP/1.1${reason ? `: ${reason}` : ''}.`);
}

/**
 * The request path as sent, from the bytes the parser refused: up to the query, every byte outside
 * printable ASCII percent-encoded, so `instance` names it without echoing raw bytes. `/` when the
 * request line cannot be read.
 */
function pathOf(rawPacket: unknown): string {
  if (!Buffer.isBuffer(rawPacket)) return '/';
  const line = /^[!-~]+ (\/[^ ?\r\n]*)/.exec(rawPacket.subarray(0, 8192).toString('latin1'));
  if (!line) return '/';
  return line[1].replace(/[^!-~]|%(?![0-9A-Fa-f]{2})/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}

/**
 * The X-Request-Id of the refused bytes when one of their header lines carries a well-formed one,
 * else a new id: every answer carries one (contract §14).
 */
function requestIdOf(rawPacket: unknown): string {
  const line = Buffer.isBuffer(rawPacket) ? /\r\nX-Request-Id:[ \t]*([!-~]+)[ \t]*\r\n/i.exec(rawPacket.subarray(0, 65536).toString('latin1')) : null;
  return requestIdFor(line?.[1]);
}

/**
 * Requests Node's HTTP parser refuses before Express sees them (raw non-ASCII bytes in the path, a
 * malformed request line or header, headers over the limit) are answered with a 400 in the shape
 * their path chooses (a problem, or RFC 6749 JSON on a token endpoint) instead of Node's bare
 * answer without a body (contract §2). As Node does, nothing is written once a
 * response has begun on the connection, and the connection is closed.
 */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException & { rawPacket?: unknown; reason?: unknown }, socket: Duplex & { bytesWritten?: number }) => {
    if (error.code === 'ECONNRESET' || !socket.writable || (socket.bytesWritten ?? 0) > 0) {
      socket.destroy();
      return;
    }
    // The path chooses the shape, as in the exception filter: a token endpoint answers RFC 6749 JSON.
    const answer = errorAnswer(failureOf(error), pathOf(error.rawPacket));
    const headers = { ...answer.headers, 'X-Request-Id': requestIdOf(error.rawPacket), 'Content-Length': String(Buffer.byteLength(answer.body)), Connection: 'close' };
    socket.end(
      `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status]}\r\n` +
        Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join('') +
        '\r\n' +
        answer.body,
    );
  });
}
