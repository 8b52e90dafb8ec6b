import { ApiProperty } from '@nestjs/swagger';
import { IsInt, Max, Min } from 'class-validator';

export const ORGANIZATION_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
const MAX_LIFETIME_S = 31_536_000;

/** PUT /admin/tpps/{organization_id} (contract §8). */
export class PutTppDto {
  @ApiProperty({ type: 'integer', example: 1800, minimum: 1, maximum: MAX_LIFETIME_S, description: 'Lifetime of non-authenticated tokens (bank §4.1; default 1800).' })
  @IsInt({ message: 'non_authenticated_token_lifetime_s must be a whole number of seconds' })
  @Min(1)
  @Max(MAX_LIFETIME_S)
  non_authenticated_token_lifetime_s: number;
}

export class TppResponseDto {
  @ApiProperty({ example: 'PSDSE-FINA-12345', description: 'The organizationIdentifier of the TPP\'s certificate' })
  organization_id: string;

  @ApiProperty({ example: 1800, description: 'Seconds' })
  non_authenticated_token_lifetime_s: number;
}
