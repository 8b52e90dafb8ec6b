import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { INSTANT, NestedObject, QueryNumber } from '@app/common';
import { IsBoolean, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min, MinLength } from 'class-validator';
import { SetClockDto } from '../clock/clock.dto';
import { API_KEY_PATTERN } from '../partners/partner.dto';
import { SeedFixtureDto } from '../seed/seed.dto';

export const MAX_SANDBOXES_PAGE = 500;

/** POST /sandboxes (contract §13 Lifecycle). */
/** A sandbox id as the service gives it: `default` or a lower-case UUID. */
const SANDBOX_ID_PATTERN = /^(default|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

export class CreateSandboxDto {
  @ApiProperty({ example: 'ci-run-4711', minLength: 1, maxLength: 100 })
  @IsString()
  @MinLength(1, { message: 'name must be 1 to 100 characters' })
  @MaxLength(100, { message: 'name must be 1 to 100 characters' })
  name: string;

  @ApiPropertyOptional({ default: true, description: 'Seed the demo set of contract §8 (its demo partner gets `demo_partner_key` or a fresh random key)' })
  @IsOptional()
  @IsBoolean()
  seed_demo?: boolean;

  @ApiPropertyOptional({ description: "The demo partner's key (16–512 visible ASCII characters); random when absent", example: 'ci-demo-partner-key-0123', pattern: API_KEY_PATTERN.source })
  @IsOptional()
  @Matches(API_KEY_PATTERN, { message: 'demo_partner_key must be 16 to 512 visible ASCII characters' })
  demo_partner_key?: string;

  @ApiPropertyOptional({ description: "Planned downtime windows (contract §7) in this sandbox; default: the service's DOWNTIME_CALENDAR" })
  @IsOptional()
  @IsBoolean()
  downtime_calendar?: boolean;

  @ApiPropertyOptional({ type: SetClockDto, description: "The sandbox clock's setting at creation and after every reset; default: real time" })
  @IsOptional()
  @NestedObject(() => SetClockDto, 'clock must be a JSON object { now, frozen? }')
  clock?: SetClockDto;

  @ApiPropertyOptional({ type: SeedFixtureDto, description: 'A fixture of contract §8, loaded at creation and after every reset' })
  @IsOptional()
  @NestedObject(() => SeedFixtureDto, 'fixture must be a JSON object (a fixture of contract §8)')
  fixture?: SeedFixtureDto;
}

/** A sandbox as GET answers it: never a key. */
export class SandboxDto {
  @ApiProperty({
    type: String,
    example: '3f2b8c1e-6a4d-4e8b-9c1a-2d5e7f9a0b13',
    pattern: SANDBOX_ID_PATTERN.source,
    description: 'A UUID, or `default` for the default sandbox',
  })
  sandbox_id: string;

  @ApiProperty({ example: 'ci-run-4711' })
  name: string;

  @ApiProperty({ example: 'https://sandbox.example.com/sandboxes/3f2b8c1e-6a4d-4e8b-9c1a-2d5e7f9a0b13', description: 'The prefix every route of this sandbox is served under (from the request\'s host)' })
  base_url: string;

  @ApiProperty(INSTANT)
  created_at: string;

  @ApiProperty(INSTANT)
  last_used_at: string;
}

/** POST /sandboxes → 201: the keys are shown only here. */
export class SandboxCreatedDto extends SandboxDto {
  // Optional in the document: an Idempotency-Key replay of this answer leaves it out (contract §15).
  @ApiPropertyOptional({ description: "Opens this sandbox's /admin/* and its own GET, reset and DELETE (stored hashed; shown only here, in the first answer: an Idempotency-Key replay leaves it out)" })
  admin_key: string;

  @ApiPropertyOptional({ description: "The demo partner's key when the demo set was seeded (stored hashed; shown only here, in the first answer: an Idempotency-Key replay leaves it out)" })
  demo_partner_key?: string;
}

export class ListSandboxesQueryDto {
  @ApiPropertyOptional({ default: 100, minimum: 1, maximum: MAX_SANDBOXES_PAGE, description: 'Sandboxes per page' })
  @IsOptional()
  @QueryNumber()
  @IsInt({ message: `limit must be a whole number from 1 to ${MAX_SANDBOXES_PAGE}` })
  @Min(1, { message: `limit must be a whole number from 1 to ${MAX_SANDBOXES_PAGE}` })
  @Max(MAX_SANDBOXES_PAGE, { message: `limit must be a whole number from 1 to ${MAX_SANDBOXES_PAGE}` })
  limit?: number;

  @ApiPropertyOptional({ description: 'Start after this sandbox id: the `next_after` of the previous page', pattern: SANDBOX_ID_PATTERN.source })
  @IsOptional()
  @Matches(SANDBOX_ID_PATTERN, { message: 'after must be a sandbox id, "default" or a UUID (the next_after of the previous page)' })
  after?: string;
}

export class SandboxListDto {
  @ApiProperty({ type: [SandboxDto] })
  sandboxes: SandboxDto[];

  @ApiPropertyOptional({ description: 'More sandboxes follow: pass this as `after` for the next page. Omitted on the last page.' })
  next_after?: string;
}
