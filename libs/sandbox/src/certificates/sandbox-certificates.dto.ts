import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsIn, IsOptional, IsString, Length } from 'class-validator';
import { INSTANT, IsInstant } from '@app/common';
import { CERTIFICATE_VALIDITY_RANGE, PSD2_ROLES, type Psd2Role } from '@app/directory';
import { IsOrganizationId, ORGANIZATION_ID_PATTERN } from '../tpps/tpp.dto';

const VALIDITY = `ISO 8601 date-time (RFC 3339) with an offset or Z, from ${CERTIFICATE_VALIDITY_RANGE.earliest.toISOString()} to ${CERTIFICATE_VALIDITY_RANGE.latest.toISOString()} (what a certificate can state).`;

/** POST /sandbox/certificates (contract §16). */
export class IssueCertificateDto {
  @ApiProperty({
    example: 'PSDSE-FINA-12345',
    pattern: ORGANIZATION_ID_PATTERN.source,
    description: 'The organizationIdentifier: the TPP on the PSD2 routes. Never sha256:… (the form that names the TPP of a certificate without one, contract §16).',
  })
  @IsString({ message: 'organization_id must be a string' })
  @IsOrganizationId()
  organization_id: string;

  @ApiProperty({ enum: PSD2_ROLES, isArray: true, example: ['PSP_AI', 'PSP_PI'], description: 'The roles of the ETSI TS 119 495 QCStatement; may be empty' })
  @IsArray({ message: 'roles must be an array of PSD2 roles (may be empty)' })
  @ArrayMaxSize(PSD2_ROLES.length * 2, { message: `roles must hold at most ${PSD2_ROLES.length * 2} entries` })
  @IsIn(PSD2_ROLES, { each: true, message: `roles must hold only ${PSD2_ROLES.join(', ')}` })
  roles: Psd2Role[];

  @ApiPropertyOptional({ example: 'Example TPP AB', minLength: 1, maxLength: 64, description: 'The subject commonName; the organization id when absent' })
  @IsOptional()
  @IsString({ message: 'common_name must be a string' })
  @Length(1, 64, { message: 'common_name must be 1 to 64 characters' })
  common_name?: string;

  @ApiPropertyOptional({ ...INSTANT, example: '2026-11-24T09:00:00+01:00', description: `Valid from; the sandbox clock's now minus one hour when absent. ${VALIDITY}` })
  @IsOptional()
  @IsInstant(CERTIFICATE_VALIDITY_RANGE)
  not_before?: string;

  @ApiPropertyOptional({ ...INSTANT, example: '2027-11-24T10:00:00+01:00', description: `Valid until, exclusive: from this instant on the certificate has expired (contract §6, §16); one year after the sandbox clock's now when absent. Must be after not_before. ${VALIDITY}` })
  @IsOptional()
  @IsInstant(CERTIFICATE_VALIDITY_RANGE)
  not_after?: string;
}

export class IssuedCertificateDto {
  @ApiProperty({ example: '1A2B3C4D5E6F708192A3B4C5D6E7F801', description: 'Uppercase hex; revoke it with POST /admin/certificates/{serial}/revoke' })
  serial: string;

  @ApiProperty({ description: 'The client certificate, PEM (curl --cert)' })
  certificate_pem: string;

  @ApiProperty({ description: 'Its private key, PKCS#8 PEM (curl --key); the sandbox keeps no copy' })
  private_key_pem: string;

  @ApiProperty({ description: 'The sandbox CA certificate, PEM (curl --cacert), as GET /sandbox/ca.pem' })
  ca_pem: string;

  @ApiProperty({ description: 'The certificate, its key and the CA certificate as PKCS#12, Base64 (curl --cert-type P12)' })
  pkcs12_base64: string;

  @ApiProperty({ description: 'The password of pkcs12_base64' })
  pkcs12_password: string;
}
