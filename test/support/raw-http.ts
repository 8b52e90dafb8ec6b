import { connect } from 'node:net';

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Sends bytes as they are over a plain socket (no client library tidies them) and reads the answer until the server closes.
 * `halfClose: false` keeps the sending side open, for a request whose answer takes time (Node drops a request whose
 * client ended its side); the request must then make the server close (HTTP/1.0, or `Connection: close`).
 */
export function rawRequest(base: string, bytes: Buffer, { halfClose = true }: { halfClose?: boolean } = {}): Promise<RawAnswer> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(Number(port), hostname, () => (halfClose ? socket.end(bytes) : socket.write(bytes)));
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head, ...rest] = text.split('\r\n\r\n');
      const [statusLine, ...headerLines] = head.split('\r\n');
      const headers = Object.fromEntries(headerLines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: rest.join('\r\n\r\n') });
    });
  });
}
