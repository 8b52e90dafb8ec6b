import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { Public } from '../access/access.decorators';
import { ApiProblems } from '../openapi/api-problems.decorator';
import { DatabaseHealth } from './database-health';

export class HealthResponseDto {
  @ApiProperty({ enum: ['ok'], example: 'ok' })
  status: 'ok';
}

@ApiTags('Sandbox')
@Controller('health')
export class HealthController {
  constructor(private readonly health: DatabaseHealth) {}

  @Get()
  @Public()
  @ApiOperation({ summary: 'Liveness and database check', description: 'Answers 200 when the database answers (contract §1).' })
  @ApiOkResponse({ type: HealthResponseDto })
  @ApiProblems(503)
  check(): Promise<HealthResponseDto> {
    return this.health.check();
  }
}
