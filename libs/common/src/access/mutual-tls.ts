import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { CertificateRefused } from '../errors/domain-error';

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

/**
 * What a token issued or presented in this request is bound to (contract §16, RFC 8705 §3): on the
 * TLS port the SHA-256 thumbprint (lowercase hex of the DER) of the handshake's client certificate,
 * on the plain port null (its tokens are bound to no certificate). The gate has refused a TLS request
 * without a certificate before any token is read; should one get here all the same, it is refused too.
 */
export function certificateBindingOf(request: IncomingMessage): string | null {
  if (!isMutualTls(request)) return null;
  const der = peerCertificateDer(request);
  if (!der) throw new CertificateRefused('CERTIFICATE_REQUIRED', 'This route needs a client certificate in the TLS handshake (strict mode).');
  return createHash('sha256').update(der).digest('hex');
}

/** The route's request's certificateBindingOf: what the tokens a token endpoint issues are bound to. */
export const CertificateBinding = createParamDecorator((_: unknown, context: ExecutionContext): string | null =>
  certificateBindingOf(context.switchToHttp().getRequest<IncomingMessage>()),
);

/**
 * Why a token bound to `bound` is refused in a request bound to `presented` (both as
 * certificateBindingOf gives them), or null when they agree: the two ports are two separate worlds
 * of credentials, and on the TLS port a token goes with the one certificate it was obtained with.
 */
export function certificateBindingRefusal(what: string, bound: string | null, presented: string | null): string | null {
  if (bound === presented) return null;
  if (presented === null) {
    return `This ${what} was obtained over mutual TLS and is bound to that client certificate (contract §16, RFC 8705): use it on the TLS port with that certificate, not on the plain port.`;
  }
  if (bound === null) {
    return `This ${what} was obtained on the plain port: the TLS port accepts only tokens obtained there, with the client certificate they were obtained with (contract §16).`;
  }
  return `This ${what} is bound to another client certificate (contract §16, RFC 8705): present the certificate it was obtained with.`;
}
