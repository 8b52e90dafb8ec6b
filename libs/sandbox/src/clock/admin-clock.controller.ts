import { Body, Controller, Delete, Get, HttpCode, Post, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { ADMIN_PROBLEMS, AdminOnly, API_TAG, ApiInterface, ApiProblems, Idempotent, SANDBOX_CLOCK_RANGE } from '@app/common';
import { AdminClockService } from './admin-clock.service';
import { AdvanceClockDto, ClockResponseDto, SetClockDto } from './clock.dto';

const CLOCK_RANGE_TEXT = `${SANDBOX_CLOCK_RANGE.earliest.toISOString()} to ${SANDBOX_CLOCK_RANGE.latest.toISOString()}`;

@ApiInterface(API_TAG.admin)
@AdminOnly()
@ApiProblems(...ADMIN_PROBLEMS)
@Controller('admin/clock')
export class AdminClockController {
  constructor(private readonly service: AdminClockService) {}

  @Get()
  @ApiOperation({ summary: 'The sandbox clock', description: 'Every time rule reads this clock (contract §6).' })
  @ApiOkResponse({ type: ClockResponseDto })
  readClock(): Promise<ClockResponseDto> {
    return this.service.read();
  }

  @Put()
  @ApiOperation({ summary: 'Set the sandbox clock', description: 'Runs on from `now`, or stands still with `frozen: true`. Every instance sees it within a second.' })
  @ApiOkResponse({ type: ClockResponseDto })
  @ApiProblems({ status: 400, description: `now missing, not an ISO 8601 date-time with an offset or Z, or outside the clock's range, ${CLOCK_RANGE_TEXT}` }, 413)
  setClock(@Body() dto: SetClockDto): Promise<ClockResponseDto> {
    return this.service.set(dto.now, dto.frozen ?? false);
  }

  @Post('advance')
  @HttpCode(200)
  @Idempotent()
  @ApiOperation({ summary: 'Move the sandbox clock forward', description: 'A frozen clock stays frozen.' })
  @ApiOkResponse({ type: ClockResponseDto })
  @ApiProblems({ status: 400, description: `seconds missing, negative, over 100 years, or moving the clock past ${SANDBOX_CLOCK_RANGE.latest.toISOString()}, the end of its range` }, 413)
  advanceClock(@Body() dto: AdvanceClockDto): Promise<ClockResponseDto> {
    return this.service.advance(dto.seconds);
  }

  @Delete()
  @ApiOperation({
    summary: 'Return to real time',
    description: 'Drops any offset or freeze: the sandbox clock follows the real clock again (contract §6).',
  })
  @ApiOkResponse({ type: ClockResponseDto })
  resetClock(): Promise<ClockResponseDto> {
    return this.service.reset();
  }
}
