import { Injectable } from '@nestjs/common';
import { randomInt } from 'node:crypto';
import { Clock } from '@app/common';
import { issueTestCertificate, type Psd2Role } from '@app/directory';
import { TestCertificateResponseDto } from './test-certificate.dto';

@Injectable()
export class TestCertificateService {
  constructor(private readonly clock: Clock) {}

  async issue(roles: Psd2Role[], organizationId?: string): Promise<TestCertificateResponseDto> {
    const organization = organizationId ?? `PSDSE-SANDBOX-${String(randomInt(100_000_000)).padStart(8, '0')}`;
    const unique = [...new Set(roles)];
    const der = await issueTestCertificate({ roles: unique, organizationId: organization, now: this.clock.now() });
    return { certificate: der.toString('base64'), organization_id: organization, roles: unique };
  }
}
