import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty } from '@nestjs/swagger';
import { Public } from '../access/access.decorators';
import { ApiInterface } from '../openapi/api-interface.decorator';
import { ApiProblems } from '../openapi/api-problems.decorator';
import { API_TAG } from '../openapi/api-tags';
import { DatabaseHealth } from './database-health';

export class HealthResponseDto {
  @ApiProperty({ enum: ['ok'], example: 'ok' })
  status: 'ok';
}

@ApiInterface(API_TAG.sandbox)
@Controller('health')
export class HealthController {
  constructor(private readonly health: DatabaseHealth) {}

  @Get()
  @Public()
  @ApiOperation({ summary: 'Liveness and database check', description: 'Answers 200 when the database answers (contract §1).' })
  @ApiOkResponse({ type: HealthResponseDto })
  @ApiProblems({ status: 503, code: 'DATABASE_UNAVAILABLE', description: 'The database does not answer', message: 'The database does not answer.' })
  check(): Promise<HealthResponseDto> {
    return this.health.check();
  }
}
