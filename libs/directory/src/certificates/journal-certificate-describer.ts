import { Injectable, OnModuleInit } from '@nestjs/common';
import { type CertificateSummary, JournalCertificates } from '@app/common';
import { type Psd2Certificate, readPsd2Certificate, readPsd2CertificatePem, UnreadableCertificate } from './psd2-certificate';

/**
 * Gives the journal's redactor this lib's certificate reader: a certificate is shown by its
 * organization id and the SHA-256 of its DER (contract §14), the same for the header's Base64 and for
 * the PEM of an answer, so one certificate reads as one wherever it appears.
 */
@Injectable()
export class JournalCertificateDescriber implements OnModuleInit {
  constructor(private readonly journal: JournalCertificates) {}

  onModuleInit(): void {
    this.journal.register((value) => {
      try {
        return summaryOf(readAnyForm(value));
      } catch (error) {
        if (error instanceof UnreadableCertificate || error instanceof URIError) return null;
        throw error;
      }
    });
  }
}

/** PEM text (URL-encoded, as a proxy forwards one), else the header's Base64 of DER or PEM. */
function readAnyForm(value: string): Psd2Certificate {
  if (!value.includes('-----')) return readPsd2Certificate(value);
  return readPsd2CertificatePem(value.includes('-----BEGIN%20') ? decodeURIComponent(value) : value);
}

/** Contract §2: a certificate without an organization id has none in its summary, rather than a null. */
function summaryOf(certificate: Psd2Certificate): CertificateSummary {
  const { organizationId, fingerprint } = certificate;
  return organizationId === null ? { sha256: fingerprint } : { organization_id: organizationId, sha256: fingerprint };
}
