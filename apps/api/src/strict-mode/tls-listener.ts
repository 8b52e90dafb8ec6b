import type { INestApplication } from '@nestjs/common';
import { readFileSync } from 'node:fs';
import type { RequestListener } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { answerClientErrors, SandboxConfig } from '@app/common';
import { SandboxCertificateAuthority } from '@app/directory';

/** The names the issued server certificate always covers (contract §16), before TLS_HOSTNAMES. */
const LOCAL_NAMES = ['localhost', '127.0.0.1'];

export interface TlsListener {
  server: Server;
  port: number;
  close(): Promise<void>;
}

/**
 * Strict mode's HTTPS listener (contract §16): the same Express app, routes and sandboxes as the
 * plain port. It asks every client for a certificate but accepts a handshake without one (and any
 * issuer), so that the app answers CERTIFICATE_REQUIRED or CERTIFICATE_INVALID readably rather than
 * the TLS layer dropping the connection; the access guard validates it per request. Its server
 * certificate is TLS_CERT/TLS_KEY, else one the sandbox CA issues now (real time, not a sandbox's
 * clock: browsers and curl judge it by theirs).
 */
export async function listenTls(app: INestApplication, port: number, host?: string): Promise<TlsListener> {
  const config = app.get(SandboxConfig);
  const { cert, key } =
    config.tlsCert && config.tlsKey
      ? { cert: readFileSync(config.tlsCert, 'utf8'), key: readFileSync(config.tlsKey, 'utf8') }
      : await issuedServerCertificate(app, config.tlsHostnames);
  const server = createServer({ cert, key, requestCert: true, rejectUnauthorized: false }, app.getHttpAdapter().getInstance() as RequestListener);
  answerClientErrors(server);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    server,
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function issuedServerCertificate(app: INestApplication, hostnames: readonly string[]): Promise<{ cert: string; key: string }> {
  const names = [...new Set([...LOCAL_NAMES, ...hostnames])];
  // Real time on purpose: TLS clients judge the server certificate by their own clock.
  const issued = await app.get(SandboxCertificateAuthority).issueServer(names, new Date());
  return { cert: issued.certificatePem, key: issued.privateKeyPem };
}
