import { Injectable, OnModuleInit } from '@nestjs/common';
import { JournalCertificates } from '@app/common';
import { readPsd2Certificate, UnreadableCertificate } from './psd2-certificate';

/** Gives the journal's redactor this lib's certificate reader: a certificate is shown by its organization id and fingerprint (contract §14). */
@Injectable()
export class JournalCertificateDescriber implements OnModuleInit {
  constructor(private readonly journal: JournalCertificates) {}

  onModuleInit(): void {
    this.journal.register((value) => {
      try {
        const certificate = readPsd2Certificate(value);
        return { organization_id: certificate.organizationId, sha256: certificate.fingerprint };
      } catch (error) {
        if (error instanceof UnreadableCertificate) return null;
        throw error;
      }
    });
  }
}
