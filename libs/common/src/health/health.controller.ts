import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty } from '@nestjs/swagger';
import { Public } from '../access/access.decorators';
import { ApiInterface } from '../openapi/api-interface.decorator';
import { ApiProblems } from '../openapi/api-problems.decorator';
import { API_TAG } from '../openapi/api-tags';
import { JournalWriter } from '../journal/journal-writer';
import { logRedactionFailed } from '../logging/log-redaction';
import { DatabaseHealth } from './database-health';

export class JournalHealthDto {
  @ApiProperty({ description: 'Whether requests are recorded (JOURNAL)', example: true })
  recording: boolean;

  @ApiProperty({ description: 'Entries waiting for the next batch write', example: 0 })
  buffered: number;

  @ApiProperty({ description: 'Entries written by this instance since it started', example: 1200 })
  written: number;

  @ApiProperty({ description: 'Entries this instance lost (a failed write, a full buffer, a failed redaction); each is logged at warn', example: 0 })
  lost: number;

  @ApiProperty({ description: 'Batch writes that failed on this instance', example: 0 })
  failed_writes: number;

  @ApiProperty({
    description:
      'Entries this instance dropped because redacting them failed (contract §14): such an entry is never stored unredacted; it is counted here and in `lost`, and logged at warn by the error\'s type only',
    example: 0,
  })
  redaction_failed: number;
}

export class LogsHealthDto {
  @ApiProperty({
    description:
      'Logged values (a request, an answer, an error) or whole log lines this process replaced because redacting them failed (contract §14): a value whose redaction fails is logged as "[redaction failed]", never in clear',
    example: 0,
  })
  redaction_failed: number;
}

export class HealthDetailsDto {
  @ApiProperty({ type: JournalHealthDto, description: 'The request journal of this instance (contract §14): its failures never fail a request' })
  journal: JournalHealthDto;

  @ApiProperty({ type: LogsHealthDto, description: 'The logs of this process: they redact with the journal\'s rules (contract §14)' })
  logs: LogsHealthDto;
}

export class HealthResponseDto {
  @ApiProperty({ enum: ['ok'], example: 'ok' })
  status: 'ok';

  @ApiProperty({ type: HealthDetailsDto })
  details: HealthDetailsDto;
}

@ApiInterface(API_TAG.sandbox)
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: DatabaseHealth,
    private readonly journal: JournalWriter,
  ) {}

  @Get()
  @Public()
  @ApiOperation({ summary: 'Liveness and database check', description: 'Answers 200 when the database answers (contract §1), with details of this instance\'s request journal and of its logs\' redaction (contract §14).' })
  @ApiOkResponse({ type: HealthResponseDto })
  @ApiProblems({ status: 503, code: 'DATABASE_UNAVAILABLE', description: 'The database does not answer', message: 'The database does not answer.' })
  async check(): Promise<HealthResponseDto> {
    return { ...(await this.health.check()), details: { journal: this.journal.health(), logs: { redaction_failed: logRedactionFailed() } } };
  }
}
