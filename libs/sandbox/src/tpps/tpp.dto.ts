import { ApiProperty } from '@nestjs/swagger';
import { IsInt, Max, Min, ValidateBy, type ValidationArguments } from 'class-validator';
import { reservedOrganizationIdProblem } from '@app/directory';

export const ORGANIZATION_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
const ORGANIZATION_ID_RULE = 'organization_id must be 1 to 128 letters, digits, ".", "_" or "-", e.g. PSDSE-FINA-12345';

/** Why `value` is no organization id a TPP may be given by (contract §3, §16), or null. */
export function organizationIdProblem(value: unknown): string | null {
  if (typeof value === 'string') {
    const reserved = reservedOrganizationIdProblem(value);
    if (reserved) return reserved;
  }
  return typeof value === 'string' && ORGANIZATION_ID_PATTERN.test(value) ? null : ORGANIZATION_ID_RULE;
}

/** An organizationIdentifier (contract §3): the pattern, and never the `sha256:` form (contract §16). */
export const IsOrganizationId = () =>
  ValidateBy({
    name: 'isOrganizationId',
    validator: {
      validate: (value: unknown) => organizationIdProblem(value) === null,
      defaultMessage: (args?: ValidationArguments) => organizationIdProblem(args?.value) ?? ORGANIZATION_ID_RULE,
    },
  });
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
