import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';

export const API_KEY_PATTERN = /^[\x21-\x7e]{16,512}$/;

/** POST /admin/partners (contract §8). */
export class CreatePartnerDto {
  @ApiProperty({ example: 'Mäklarbyrån AB', maxLength: 200 })
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  name: string;

  @ApiPropertyOptional({
    description: 'A key of your choosing (16–512 visible ASCII characters), e.g. a value your CI knows; random when absent.',
    example: 'ci-partner-key-0123456789',
    pattern: API_KEY_PATTERN.source,
  })
  @IsOptional()
  @Matches(API_KEY_PATTERN, { message: 'api_key must be 16 to 512 visible ASCII characters' })
  api_key?: string;
}

export class PartnerCreatedDto {
  @ApiProperty({ format: 'uuid' })
  partner_id: string;

  @ApiProperty({ example: 'Mäklarbyrån AB' })
  name: string;

  // Optional in the document: an Idempotency-Key replay of this answer leaves it out (contract §15).
  @ApiPropertyOptional({ description: 'Shown only here, in the first answer: the sandbox keeps only its SHA-256, and an Idempotency-Key replay leaves it out (contract §15).' })
  api_key: string;
}
