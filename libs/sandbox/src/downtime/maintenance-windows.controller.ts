import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty } from '@nestjs/swagger';
import { API_TAG, ApiInterface, Clock, INSTANT, Public } from '@app/common';
import { activeWindow, DOWNTIME_WINDOWS, formatWindow } from './downtime-calendar';
import { DowntimeGate } from './downtime.gate';

export class MaintenanceWindowDto {
  @ApiProperty({ ...INSTANT, example: '2026-11-22T04:00:00+01:00', description: 'Europe/Stockholm wall-clock time with its offset' })
  start: string;

  @ApiProperty({ ...INSTANT, example: '2026-11-22T07:45:00+01:00', description: 'Europe/Stockholm wall-clock time with its offset' })
  end: string;
}

/** Contract §7. */
export class MaintenanceWindowsDto {
  /**
   * Always sent, null outside every window (contract §7). Inline rather than a $ref: OpenAPI 3.0's
   * `nullable` only applies beside a `type`, and strict validators refuse it next to `allOf` (issue 13).
   */
  @ApiProperty({
    type: 'object',
    nullable: true,
    properties: {
      start: { type: 'string', format: 'date-time', example: '2026-11-22T04:00:00+01:00', description: 'Europe/Stockholm wall-clock time with its offset' },
      end: { type: 'string', format: 'date-time', example: '2026-11-22T07:45:00+01:00', description: 'Europe/Stockholm wall-clock time with its offset' },
    },
    required: ['start', 'end'],
    // `required` above lists the window's fields; selfRequired says `active` itself is always sent.
    selfRequired: true,
    description: 'The window in force now (sandbox clock); null when none is (or with DOWNTIME_CALENDAR=off)',
  })
  active: MaintenanceWindowDto | null;

  @ApiProperty({ type: [MaintenanceWindowDto], description: 'Every window of bank §8' })
  windows: MaintenanceWindowDto[];
}

@ApiInterface(API_TAG.sandbox)
@Controller('sandbox/maintenance-windows')
export class MaintenanceWindowsController {
  constructor(
    private readonly clock: Clock,
    private readonly downtime: DowntimeGate,
  ) {}

  @Get()
  @Public()
  @ApiOperation({
    summary: 'The planned downtime windows (bank §8)',
    description: 'Europe/Stockholm wall-clock times with their offsets; `active` follows the sandbox clock (null with DOWNTIME_CALENDAR=off).',
  })
  @ApiOkResponse({ type: MaintenanceWindowsDto })
  list(): MaintenanceWindowsDto {
    const active = this.downtime.calendarOn() ? activeWindow(this.clock.now()) : null;
    return { active: active ? formatWindow(active) : null, windows: DOWNTIME_WINDOWS.map(formatWindow) };
  }
}
