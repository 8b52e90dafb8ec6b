import { Injectable } from '@nestjs/common';
import { Clock, instantOf, isWithin, outsideRangeMessage, ValidationFailed } from '@app/common';
import { CERTIFICATE_VALIDITY_RANGE, SandboxCertificateAuthority } from '@app/directory';
import { IssueCertificateDto, IssuedCertificateDto } from './sandbox-certificates.dto';

const HOUR_MS = 60 * 60 * 1000;

/** Issuing and revoking strict mode's client certificates (contract §16). */
@Injectable()
export class SandboxCertificatesService {
  constructor(
    private readonly authority: SandboxCertificateAuthority,
    private readonly clock: Clock,
  ) {}

  caPem(): Promise<string> {
    return this.authority.caPem();
  }

  /** Validity defaults by the sandbox clock: from an hour ago to a year from now. */
  async issue(dto: IssueCertificateDto): Promise<IssuedCertificateDto> {
    const now = this.clock.now();
    const notBefore = dto.not_before === undefined ? new Date(now.getTime() - HOUR_MS) : instantOf(dto.not_before);
    const notAfter = dto.not_after === undefined ? addUtcYear(now) : instantOf(dto.not_after);
    // Only a default can be outside: the DTO held the given instants to the range.
    for (const [field, instant] of [['not_before', notBefore], ['not_after', notAfter]] as const) {
      if (!isWithin(instant, CERTIFICATE_VALIDITY_RANGE)) {
        throw new ValidationFailed(`${outsideRangeMessage(field, CERTIFICATE_VALIDITY_RANGE)}; its default from the sandbox clock, ${instant.toISOString()}, is not: give ${field}.`);
      }
    }
    if (notAfter <= notBefore) {
      throw new ValidationFailed(`not_after (${notAfter.toISOString()}) must be after not_before (${notBefore.toISOString()}).`);
    }
    const issued = await this.authority.issue({
      organizationId: dto.organization_id,
      roles: [...new Set(dto.roles)],
      commonName: dto.common_name ?? dto.organization_id,
      notBefore,
      notAfter,
    });
    return {
      serial: issued.serial,
      certificate_pem: issued.certificatePem,
      private_key_pem: issued.privateKeyPem,
      ca_pem: await this.authority.caPem(),
      pkcs12_base64: issued.pkcs12.toString('base64'),
      pkcs12_password: issued.pkcs12Password,
    };
  }

  revoke(serial: string): Promise<void> {
    return this.authority.revoke(serial);
  }
}

function addUtcYear(date: Date): Date {
  const result = new Date(date.getTime());
  result.setUTCFullYear(result.getUTCFullYear() + 1);
  return result;
}
