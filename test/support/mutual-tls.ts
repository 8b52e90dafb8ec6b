import { Agent, request as httpsRequest } from 'node:https';
import { ADMIN_KEY, type TestApp } from './test-app';

/** A certificate of POST /sandbox/certificates (contract §16). */
export interface IssuedCertificate {
  serial: string;
  certificate_pem: string;
  private_key_pem: string;
  ca_pem: string;
  pkcs12_base64: string;
  pkcs12_password: string;
}

export interface TlsAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** The body parsed as JSON, when it is JSON. */
  body: Record<string, unknown> & { reason?: { code: string; message: string } };
  /** Whether this request's TLS session was a resumed one. */
  resumed: boolean;
}

export interface TlsCallOptions {
  method?: string;
  headers?: Record<string, string>;
  /** Sent as JSON. */
  json?: object;
  /** Sent as application/x-www-form-urlencoded. */
  form?: Record<string, string>;
  /** The client certificate of the handshake; none when absent. */
  client?: { cert: string; key: string } | { pfx: Buffer; passphrase: string };
  /** Reuse TLS sessions through this agent (session resumption). */
  agent?: Agent;
}

/** One real HTTPS request with a TLS handshake (client certificate as given), trusting the sandbox CA. */
export function tlsCall(base: string, ca: string, path: string, options: TlsCallOptions = {}): Promise<TlsAnswer> {
  const body = options.json ? JSON.stringify(options.json) : options.form ? new URLSearchParams(options.form).toString() : undefined;
  const contentType = options.json ? 'application/json' : options.form ? 'application/x-www-form-urlencoded' : undefined;
  const url = new URL(path, base);
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      {
        host: url.hostname,
        port: url.port,
        path: `${url.pathname}${url.search}`,
        method: options.method ?? (body ? 'POST' : 'GET'),
        ca,
        ...(options.client ?? {}),
        agent: options.agent ?? new Agent({ keepAlive: false, maxCachedSessions: 0 }),
        headers: { ...(contentType ? { 'Content-Type': contentType } : {}), ...(body ? { 'Content-Length': String(Buffer.byteLength(body)) } : {}), ...options.headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: TlsAnswer['body'] = {};
          try {
            parsed = JSON.parse(text);
          } catch {
            // not JSON (ca.pem)
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body: parsed, resumed: (res.socket as import('node:tls').TLSSocket).isSessionReused() });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** POST /sandbox/certificates over the plain port, with the operator key unless another is given (contract §16). */
export async function issueCertificate(t: TestApp, body: Record<string, unknown>, prefix = '', key = ADMIN_KEY): Promise<IssuedCertificate> {
  return (await t.http.post(`${prefix}/sandbox/certificates`).set({ Authorization: `Bearer ${key}` }).send(body).expect(201)).body;
}

export const clientOf = (issued: IssuedCertificate) => ({ cert: issued.certificate_pem, key: issued.private_key_pem });
