import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';

/** Whether the request came over the strict-mode TLS listener (contract §16), not the plain port. */
export function isMutualTls(request: IncomingMessage): boolean {
  return (request.socket as Partial<TLSSocket>).encrypted === true;
}

/**
 * The DER of the client certificate of the request's TLS handshake, or null without one (the
 * listener asks for one but accepts a handshake without it, so that it can answer readably). A
 * resumed TLS session still carries the certificate of its first handshake.
 */
export function peerCertificateDer(request: IncomingMessage): Buffer | null {
  const socket = request.socket as Partial<TLSSocket>;
  const peer = socket.getPeerCertificate?.(false);
  return peer && Buffer.isBuffer(peer.raw) && peer.raw.length > 0 ? peer.raw : null;
}

/**
 * Strict mode's gate (contract §16): on the TLS port every route but the public and admin ones needs a
 * valid client certificate, whatever the credential the route reads besides. Implemented where the
 * sandbox CA lives (libs/directory) and handed to AccessStrategyRegistry; the guard calls it.
 */
export interface ClientCertificateGate {
  /** Throws CERTIFICATE_REQUIRED or CERTIFICATE_INVALID (401) unless the handshake's certificate is valid now. */
  require(request: IncomingMessage): Promise<unknown>;
}
