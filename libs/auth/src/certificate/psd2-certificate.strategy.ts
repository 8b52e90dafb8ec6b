import { ExecutionContext, Injectable, OnModuleInit, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { AccessStrategyRegistry, type AccessStrategy, isMutualTls, type PrincipalOf, RequestCaller, SandboxCache, SandboxClock, Unauthorized } from '@app/common';
import { type Psd2Certificate, SandboxCertificateAuthority, tppIdentifier, TppRegistry, type TppRef, UnreadableCertificate } from '@app/directory';
import { parseScopes, requireRolesFor, type Scope } from '../scopes';
import { CertificateCache } from './certificate-cache';
import type { Psd2Client } from './psd2-client';

export const PSD2_CERTIFICATE_STRATEGY = 'psd2-certificate';
export const CERTIFICATE_HEADER = 'x-psd2-client-test-cert';
const SCOPES_IN_BODY = 'psd2:scopes-in-body';

/**
 * The start calls (bank §2.1): the scopes the body asks for need the certificate's roles, and a
 * scope it has no role for is refused with the credentials (403, contract §1), before the body's
 * other fields are validated. Malformed scopes are left to the validation (400 naming scopes).
 */
export const ScopesAskedInBody = () => SetMetadata(SCOPES_IN_BODY, true);

/**
 * `X-PSD2-CLIENT-TEST-CERT`: parsed (not validated: sandbox), the TPP found or registered on first
 * use, the roles attached. Missing or unreadable → 401. On the strict-mode TLS port the client
 * certificate of the handshake takes its place, validated by the sandbox CA (contract §16); a header
 * sent there must be the same certificate.
 */
@Injectable()
export class Psd2CertificateStrategy implements AccessStrategy, OnModuleInit {
  readonly name = PSD2_CERTIFICATE_STRATEGY;
  private readonly certificates = new CertificateCache();
  /**
   * identifier → TPP id never changes once registered in a sandbox, so every instance may remember
   * it, per sandbox and generation (the parsed certificate itself is no sandbox's: its cache is global).
   */
  private readonly known: SandboxCache<TppRef>;

  constructor(
    private readonly tpps: TppRegistry,
    private readonly registry: AccessStrategyRegistry,
    private readonly authority: SandboxCertificateAuthority,
    private readonly reflector: Reflector,
    clock: SandboxClock,
  ) {
    this.known = new SandboxCache(clock);
  }

  onModuleInit(): void {
    this.registry.register(this);
  }

  async authenticate(context: ExecutionContext): Promise<PrincipalOf<'psd2-client'>> {
    const request = context.switchToHttp().getRequest<Request>();
    const client = await this.identify(request);
    if (this.reflector.get<boolean | undefined>(SCOPES_IN_BODY, context.getHandler())) {
      const asked = askedScopes(request.body);
      if (asked) requireRolesFor(asked, client.roles);
    }
    return { kind: 'psd2-client', client };
  }

  async identify(request: Request): Promise<Psd2Client> {
    const mutualTls = isMutualTls(request);
    const certificate = mutualTls ? await this.handshakeCertificate(request) : this.headerCertificate(request);
    // The journal's caller from here on, whatever is refused next (contract §14).
    RequestCaller.identify(request, { kind: 'tpp', id: tppIdentifier(certificate) });
    return { tpp: await this.tppOf(certificate), roles: certificate.roles, certificateBinding: mutualTls ? certificate.fingerprint : null };
  }

  /** Strict mode (contract §16): the validated TLS client certificate; a header beside it must name the same one. */
  private async handshakeCertificate(request: Request): Promise<Psd2Certificate> {
    const certificate = await this.authority.require(request);
    const header = request.headers[CERTIFICATE_HEADER];
    if (typeof header === 'string' && header.trim() !== '' && this.headerCertificate(request).fingerprint !== certificate.fingerprint) {
      throw new Unauthorized('X-PSD2-CLIENT-TEST-CERT is not the certificate of the TLS handshake: on the TLS port leave the header out, or send the same certificate.');
    }
    return certificate;
  }

  private headerCertificate(request: Request): Psd2Certificate {
    const header = request.headers[CERTIFICATE_HEADER];
    if (typeof header !== 'string' || header.trim() === '') {
      throw new Unauthorized('The X-PSD2-CLIENT-TEST-CERT header is missing (Base64 of the TPP\'s test certificate).');
    }
    try {
      return this.certificates.read(header);
    } catch (error) {
      if (!(error instanceof UnreadableCertificate)) throw error;
      throw new Unauthorized(`X-PSD2-CLIENT-TEST-CERT: ${error.message}.`);
    }
  }

  private async tppOf(certificate: { organizationId: string | null; fingerprint: string }): Promise<TppRef> {
    const identifier = tppIdentifier(certificate);
    let tpp = this.known.lookup(identifier);
    if (!tpp) {
      const registered = await this.tpps.identify(certificate);
      tpp = { id: registered.id, identifier: registered.identifier };
      this.known.remember(identifier, tpp);
    }
    return tpp;
  }
}

/** The scopes a start call's JSON body asks for; null when absent or malformed. */
function askedScopes(body: unknown): Scope[] | null {
  const scopes = typeof body === 'object' && body !== null && Object.hasOwn(body, 'scopes') ? (body as { scopes: unknown }).scopes : undefined;
  return typeof scopes === 'string' ? parseScopes(scopes) : null;
}
