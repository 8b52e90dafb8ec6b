import { Injectable } from '@nestjs/common';
import type { CertificateDescriber, CertificateSummary } from './journal-redaction';

const CAPACITY = 200;

/**
 * The certificate describer of the journal's redactor, given by the lib that parses certificates
 * (common does not know X.509). Until one is registered a certificate is shown by the fingerprint of
 * its text. Described values are remembered: a TPP sends the same header on every call.
 */
@Injectable()
export class JournalCertificates {
  private describer: CertificateDescriber = () => null;
  private readonly described = new Map<string, CertificateSummary | null>();

  register(describer: CertificateDescriber): void {
    this.describer = describer;
    this.described.clear();
  }

  readonly describe: CertificateDescriber = (value) => {
    if (this.described.has(value)) return this.described.get(value) ?? null;
    const summary = this.describer(value);
    this.described.set(value, summary);
    if (this.described.size > CAPACITY) this.described.delete(this.described.keys().next().value as string);
    return summary;
  };
}
