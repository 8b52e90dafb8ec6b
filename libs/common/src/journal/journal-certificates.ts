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
  /** The last value described: compared before the map's lookup, which hashes the whole value (see the auth lib's CertificateCache). */
  private last: { value: string; summary: CertificateSummary | null } | undefined;

  register(describer: CertificateDescriber): void {
    this.describer = describer;
    this.described.clear();
    this.last = undefined;
  }

  readonly describe: CertificateDescriber = (value) => {
    if (this.last?.value === value) return this.last.summary;
    const summary = this.lookUp(value);
    this.last = { value, summary };
    return summary;
  };

  private lookUp(value: string): CertificateSummary | null {
    if (this.described.has(value)) return this.described.get(value) ?? null;
    const summary = this.describer(value);
    this.described.set(value, summary);
    if (this.described.size > CAPACITY) this.described.delete(this.described.keys().next().value as string);
    return summary;
  }
}
