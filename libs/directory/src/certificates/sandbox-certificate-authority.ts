import { Injectable, OnApplicationBootstrap, OnModuleInit } from '@nestjs/common';
import { createHash, X509Certificate as NodeX509Certificate } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { performance } from 'node:perf_hooks';
import { AccessStrategyRegistry, CertificateRefused, type ClientCertificateGate, Clock, NotFound, peerCertificateDer, SandboxCache, SandboxClock, ValidationFailed } from '@app/common';
import { reservedOrganizationIdProblem } from '../tpps/tpp';
import { CertificateRevocationsRepository } from './certificate-revocations.repository';
import { type Psd2Certificate, readPsd2CertificateDer, UnreadableCertificate } from './psd2-certificate';
import {
  type ClientCertificateRequest,
  createSandboxCa,
  type IssuedClientCertificate,
  type IssuedServerCertificate,
  issueClientCertificate,
  issueServerCertificate,
  loadSandboxCa,
  type SandboxCa,
  signedBy,
} from './sandbox-ca';
import { SandboxCaRepository } from './sandbox-ca.repository';

/** A client certificate as parsed once (by fingerprint): what does not depend on the sandbox or its clock. */
interface ParsedClientCertificate {
  psd2: Psd2Certificate;
  serial: string;
  notBefore: Date;
  notAfter: Date;
  signedBySandboxCa: boolean;
}

/** A sandbox's revoked serials, as last read (contract §16: at most a second old). */
interface RevocationList {
  readAt: number;
  serials: Set<string>;
}

const PARSE_CAPACITY = 1000;
const REVOCATIONS_MAX_AGE_MS = 1000;

/**
 * Strict mode's sandbox CA (contract §16): kept in the database (created on first start, shared by
 * every instance), issuing client and server certificates, revoking per sandbox, and validating
 * the TLS client certificate of each request by the sandbox's clock. The parse (and the signature
 * check, which depends on neither clock nor sandbox) is cached by fingerprint; dates and revocation
 * are judged per request.
 */
@Injectable()
export class SandboxCertificateAuthority implements ClientCertificateGate, OnModuleInit, OnApplicationBootstrap {
  private ca?: Promise<SandboxCa>;
  private readonly parsed = new Map<string, ParsedClientCertificate>();
  private readonly revocationLists: SandboxCache<RevocationList>;
  /** The validated certificate of a request: the gate and the PSD2 strategy read it once. */
  private readonly validated = new WeakMap<IncomingMessage, Promise<Psd2Certificate>>();

  constructor(
    private readonly store: SandboxCaRepository,
    private readonly revocations: CertificateRevocationsRepository,
    private readonly clock: Clock,
    private readonly registry: AccessStrategyRegistry,
    generations: SandboxClock,
  ) {
    this.revocationLists = new SandboxCache(generations);
  }

  onModuleInit(): void {
    this.registry.useClientCertificateGate(this);
  }

  /** Created on first start, so that every instance agrees on it before the first request. */
  async onApplicationBootstrap(): Promise<void> {
    await this.authority();
  }

  async caPem(): Promise<string> {
    return (await this.authority()).certificatePem;
  }

  async issue(request: ClientCertificateRequest): Promise<IssuedClientCertificate> {
    const reserved = reservedOrganizationIdProblem(request.organizationId);
    if (reserved) throw new ValidationFailed(reserved);
    const issued = await issueClientCertificate(await this.authority(), request);
    await this.store.recordIssued({ serial: issued.serial, organizationId: request.organizationId, notBefore: request.notBefore, notAfter: request.notAfter });
    return issued;
  }

  async issueServer(hostnames: readonly string[], now: Date): Promise<IssuedServerCertificate> {
    return issueServerCertificate(await this.authority(), hostnames, now);
  }

  /** Revokes an issued certificate in the context's sandbox; again is fine; an unknown serial is 404. */
  async revoke(serial: string): Promise<void> {
    const normalized = serial.toUpperCase();
    if (!(await this.store.isIssued(normalized))) throw new NotFound(`No certificate with serial ${normalized} was issued by the sandbox CA.`);
    await this.revocations.revoke(normalized, this.clock.now());
    // This instance sees it at once; others within REVOCATIONS_MAX_AGE_MS.
    this.revocationLists.remember('revocations', { readAt: performance.now(), serials: await this.revocations.revokedSerials() });
  }

  /** The gate of the TLS port: the handshake's certificate, valid now in the request's sandbox. */
  require(request: IncomingMessage): Promise<Psd2Certificate> {
    let validated = this.validated.get(request);
    if (!validated) {
      validated = this.validatePeer(request);
      this.validated.set(request, validated);
    }
    return validated;
  }

  private async validatePeer(request: IncomingMessage): Promise<Psd2Certificate> {
    const der = peerCertificateDer(request);
    if (!der) {
      throw new CertificateRefused(
        'CERTIFICATE_REQUIRED',
        'This route needs a client certificate in the TLS handshake (strict mode): issue one with POST /sandbox/certificates and send it (curl --cert cert.pem --key key.pem).',
      );
    }
    const certificate = await this.parse(der);
    if (!certificate.signedBySandboxCa) {
      throw new CertificateRefused(
        'CERTIFICATE_INVALID',
        'The client certificate is not issued by the sandbox CA (GET /sandbox/ca.pem): issue one with POST /sandbox/certificates. Certificates of GET /sandbox/test-certificate serve the X-PSD2-CLIENT-TEST-CERT header on the plain port only.',
      );
    }
    // Valid over [notBefore, notAfter): expired from the instant notAfter states on (contract §6, §16).
    const now = this.clock.now();
    if (now < certificate.notBefore) {
      throw new CertificateRefused('CERTIFICATE_INVALID', `The client certificate is not yet valid: not before ${certificate.notBefore.toISOString()}, and the sandbox clock says ${now.toISOString()}.`);
    }
    if (now >= certificate.notAfter) {
      throw new CertificateRefused('CERTIFICATE_INVALID', `The client certificate has expired: not after ${certificate.notAfter.toISOString()}, and the sandbox clock says ${now.toISOString()}.`);
    }
    if ((await this.revokedSerials()).has(certificate.serial)) {
      throw new CertificateRefused('CERTIFICATE_INVALID', `The client certificate (serial ${certificate.serial}) is revoked in this sandbox.`);
    }
    return certificate.psd2;
  }

  private async parse(der: Buffer): Promise<ParsedClientCertificate> {
    const fingerprint = createHash('sha256').update(der).digest('hex');
    const cached = this.parsed.get(fingerprint);
    if (cached) return cached;
    const ca = await this.authority();
    let certificate: ParsedClientCertificate;
    try {
      const node = new NodeX509Certificate(der);
      certificate = {
        psd2: readPsd2CertificateDer(der),
        serial: node.serialNumber.toUpperCase(),
        notBefore: new Date(node.validFrom),
        notAfter: new Date(node.validTo),
        signedBySandboxCa: signedBy(ca, node),
      };
    } catch (error) {
      const reason = error instanceof UnreadableCertificate ? error.message : 'it is not a readable X.509 certificate';
      throw new CertificateRefused('CERTIFICATE_INVALID', `The client certificate cannot be read: ${reason}.`);
    }
    this.parsed.set(fingerprint, certificate);
    if (this.parsed.size > PARSE_CAPACITY) this.parsed.delete(this.parsed.keys().next().value as string);
    return certificate;
  }

  private async revokedSerials(): Promise<Set<string>> {
    const cached = this.revocationLists.lookup('revocations');
    if (cached && performance.now() - cached.readAt <= REVOCATIONS_MAX_AGE_MS) return cached.serials;
    const list = { readAt: performance.now(), serials: await this.revocations.revokedSerials() };
    this.revocationLists.remember('revocations', list);
    return list.serials;
  }

  private authority(): Promise<SandboxCa> {
    this.ca ??= this.store
      .findOrCreate(createSandboxCa)
      .then(loadSandboxCa)
      .catch((error: unknown) => {
        this.ca = undefined; // a failed first read (database down) is retried by the next caller
        throw error;
      });
    return this.ca;
  }
}
