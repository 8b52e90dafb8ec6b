import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsOptional } from 'class-validator';
import { PSD2_ROLES, type Psd2Role } from '@app/directory';
import { IsOrganizationId, ORGANIZATION_ID_PATTERN } from '../tpps/tpp.dto';

/** "PSP_AI,PSP_PI" → ['PSP_AI', 'PSP_PI']; "" → []. */
const commaList = ({ value }: { value: unknown }) =>
  typeof value === 'string' ? value.split(',').map((role) => role.trim()).filter(Boolean) : value;

/** GET /sandbox/test-certificate (contract §3). */
export class TestCertificateQueryDto {
  @ApiPropertyOptional({
    type: String,
    pattern: `^((${PSD2_ROLES.join('|')})(,(${PSD2_ROLES.join('|')}))*)?$`,
    example: 'PSP_AI,PSP_PI',
    description: `Comma-separated PSD2 roles (${PSD2_ROLES.join(', ')}); may be empty. PSP_AI grants scope AIS, PSP_PI scope PIS.`,
  })
  @IsOptional()
  @Transform(commaList)
  @IsIn(PSD2_ROLES, { each: true, message: `roles must be a comma-separated list of ${PSD2_ROLES.join(', ')}` })
  roles?: Psd2Role[];

  @ApiPropertyOptional({
    example: 'PSDSE-FINA-12345',
    pattern: ORGANIZATION_ID_PATTERN.source,
    description: 'The organizationIdentifier that identifies the TPP; a new random one when absent. Never sha256:… (the form that names the TPP of a certificate without one, contract §16).',
  })
  @IsOptional()
  @IsOrganizationId()
  organization_id?: string;
}

export class TestCertificateResponseDto {
  @ApiProperty({ description: 'Base64 of the DER certificate: the value of the X-PSD2-CLIENT-TEST-CERT header.' })
  certificate: string;

  @ApiProperty({ example: 'PSDSE-FINA-12345' })
  organization_id: string;

  @ApiProperty({ example: ['PSP_AI', 'PSP_PI'], enum: PSD2_ROLES, isArray: true })
  roles: Psd2Role[];
}
