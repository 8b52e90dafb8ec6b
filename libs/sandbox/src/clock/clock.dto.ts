import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { INSTANT, IsDecimalNumber, IsInstant, SANDBOX_CLOCK_RANGE } from '@app/common';
import { IsBoolean, IsOptional, Max, Min } from 'class-validator';

const HUNDRED_YEARS_S = 3_155_760_000;

/** PUT /admin/clock (contract §6). */
export class SetClockDto {
  @ApiProperty({
    ...INSTANT,
    example: '2026-11-24T10:00:00+01:00',
    description: `ISO 8601 date-time (RFC 3339) with a time-zone offset or Z, from ${SANDBOX_CLOCK_RANGE.earliest.toISOString()} to ${SANDBOX_CLOCK_RANGE.latest.toISOString()} (the clock's range)`,
  })
  @IsInstant(SANDBOX_CLOCK_RANGE)
  now: string;

  @ApiPropertyOptional({ default: false, description: 'true: time stands still until moved' })
  @IsOptional()
  @IsBoolean()
  frozen?: boolean;
}

/** POST /admin/clock/advance (contract §6). */
export class AdvanceClockDto {
  @ApiProperty({ example: 3600, minimum: 0, maximum: HUNDRED_YEARS_S, multipleOf: 0.001, description: `Seconds to move forward (fractions to the millisecond); refused when the clock would pass ${SANDBOX_CLOCK_RANGE.latest.toISOString()}, the end of its range` })
  @IsDecimalNumber(3, { message: 'seconds must be a number with at most three decimals' })
  @Min(0, { message: 'seconds must not be negative: the clock only moves forward' })
  @Max(HUNDRED_YEARS_S, { message: 'seconds must be at most 100 years' })
  seconds: number;
}

export class ClockResponseDto {
  @ApiProperty({ ...INSTANT, example: '2026-11-24T09:00:00.000Z', description: 'The sandbox clock now, UTC' })
  now: string;

  @ApiProperty({ description: 'true: time stands still until moved' })
  frozen: boolean;
}
