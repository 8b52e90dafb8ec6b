import { ExecutionContext, Injectable, OnModuleInit } from '@nestjs/common';
import type { Request } from 'express';
import { AccessStrategyRegistry, type AccessStrategy, type PrincipalOf, RequestCaller, SandboxCache, SandboxClock, Unauthorized } from '@app/common';
import { tppIdentifier, TppRegistry, type TppRef, UnreadableCertificate } from '@app/directory';
import { CertificateCache } from './certificate-cache';
import type { Psd2Client } from './psd2-client';

export const PSD2_CERTIFICATE_STRATEGY = 'psd2-certificate';
export const CERTIFICATE_HEADER = 'x-psd2-client-test-cert';

/**
 * `X-PSD2-CLIENT-TEST-CERT`: parsed (not validated: sandbox), the TPP found or registered on first
 * use, the roles attached. Missing or unreadable → 401.
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
    clock: SandboxClock,
  ) {
    this.known = new SandboxCache(clock);
  }

  onModuleInit(): void {
    this.registry.register(this);
  }

  async authenticate(context: ExecutionContext): Promise<PrincipalOf<'psd2-client'>> {
    return { kind: 'psd2-client', client: await this.identify(context.switchToHttp().getRequest<Request>()) };
  }

  async identify(request: Request): Promise<Psd2Client> {
    const header = request.headers[CERTIFICATE_HEADER];
    if (typeof header !== 'string' || header.trim() === '') {
      throw new Unauthorized('The X-PSD2-CLIENT-TEST-CERT header is missing (Base64 of the TPP\'s test certificate).');
    }
    let certificate;
    try {
      certificate = this.certificates.read(header);
    } catch (error) {
      if (!(error instanceof UnreadableCertificate)) throw error;
      throw new Unauthorized(`X-PSD2-CLIENT-TEST-CERT: ${error.message}.`);
    }
    // The journal's caller from here on, whatever is refused next (contract §14).
    RequestCaller.identify(request, { kind: 'tpp', id: tppIdentifier(certificate) });
    return { tpp: await this.tppOf(certificate), roles: certificate.roles };
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
