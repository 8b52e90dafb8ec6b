import { type IncomingMessage, maxHeaderSize, type Server, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { DomainError, ValidationFailed } from '../errors/domain-error';
import { errorAnswer } from '../errors/problem-details.filter';
import { requestIdFor } from '../logging/request-id';
import { CONTROL_CHARACTER_RULE } from '../values/text-input';

type ParserError = { code?: string; reason?: unknown; rawPacket?: unknown; bytesParsed?: unknown; library?: unknown };

/**
 * An OpenSSL error on a TLS connection that no parser raised. The handshake's check of a client
 * certificate that names a CA it was not signed by (another deployment's sandbox CA: the same name,
 * another key) leaves a failed signature check on OpenSSL's error queue, and Node reports it on the
 * connection's next read although the connection is sound. The request goes on, and the app judges
 * the certificate (401 CERTIFICATE_INVALID, contract §16).
 */
const isLeftoverTlsError = (error: ParserError, socket: Duplex): boolean =>
  typeof error.library === 'string' && error.rawPacket === undefined && (socket as Duplex & { encrypted?: boolean }).encrypted === true;

/** A C0 control character or DEL, but HTAB: the bytes llhttp refuses in a header value. */
const isRefusedControlByte = (byte: number | undefined): byte is number => byte !== undefined && ((byte < 0x20 && byte !== 0x09) || byte === 0x7f);

/** Bytes outside visible ASCII percent-encoded, so a message names them without echoing them raw. */
const visible = (text: string): string => text.replace(/[^!-~]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);

/**
 * The header a control character was refused in, and that character, from the bytes llhttp refused:
 * `bytesParsed` counts the bytes of `rawPacket` it read before the one at fault (a bare CR is only
 * refused at the byte after it). Null when the fault is no control character in a header, or its
 * line began in an earlier packet.
 */
function controlCharacterInHeader(error: ParserError): { header: string; inName: boolean; byte: number } | null {
  if (error.code !== 'HPE_INVALID_HEADER_TOKEN' && error.code !== 'HPE_LF_EXPECTED') return null;
  const { rawPacket: packet, bytesParsed } = error;
  if (!Buffer.isBuffer(packet) || typeof bytesParsed !== 'number') return null;
  const at = error.code === 'HPE_LF_EXPECTED' ? bytesParsed - 1 : bytesParsed;
  const byte = packet[at];
  if (!isRefusedControlByte(byte)) return null;
  const lineStart = packet.lastIndexOf(0x0a, at - 1) + 1;
  if (lineStart === 0) return null;
  const colon = packet.indexOf(0x3a, lineStart);
  const inName = colon === -1 || colon > at;
  const header = packet.subarray(lineStart, inName ? at : colon).toString('latin1').slice(0, 100);
  return { header: visible(header), inName, byte };
}

/**
 * Why Node's HTTP parser refused a request, in the words of contract §2. llhttp's `reason` is a fixed
 * text that names the part at fault ("Transfer-Encoding can't be present with Content-Length",
 * "Invalid character in Content-Length"), never the client's bytes.
 */
function failureOf(error: ParserError): DomainError {
  const control = controlCharacterInHeader(error);
  if (control) {
    const found = `U+${control.byte.toString(16).toUpperCase().padStart(4, '0')}`;
    return new ValidationFailed(
      control.inName
        ? `A header name (beginning ${JSON.stringify(control.header)}) contains a control character (${found}); header names are tokens (RFC 9110 §5.6.2).`
        : `The header ${control.header} ${CONTROL_CHARACTER_RULE}: its value holds ${found}.`,
    );
  }
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
 * An HTTP/1.1 request without Host, which Node also answers bare, is let through to Express, where
 * refuseRequestWithoutHost answers it.
 */
export function answerClientErrors(server: Server): void {
  (server as Server & { requireHostHeader: boolean }).requireHostHeader = false;
  server.on('clientError', (error: NodeJS.ErrnoException & ParserError, socket: Duplex & { bytesWritten?: number }) => {
    if (error.code === 'ECONNRESET' || !socket.writable || (socket.bytesWritten ?? 0) > 0) {
      socket.destroy();
      return;
    }
    if (isLeftoverTlsError(error, socket)) return;
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

/**
 * An HTTP/1.1 request must carry Host (RFC 9112 §3.2: the server answers 400); an empty one is
 * allowed. Answered as every 400 is, a problem naming the header (contract §2), in place of Node's
 * bare 400 (answerClientErrors turns that off). HTTP/1.0 may leave it out.
 */
export function refuseRequestWithoutHost(request: IncomingMessage, _response: unknown, next: (error?: unknown) => void): void {
  const missing = request.httpVersion === '1.1' && request.headers.host === undefined;
  next(missing ? new ValidationFailed('Host is required on an HTTP/1.1 request (RFC 9112 §3.2); send the name and port of this service.') : undefined);
}
