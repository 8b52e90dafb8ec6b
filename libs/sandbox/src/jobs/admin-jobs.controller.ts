import { Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty } from '@nestjs/swagger';
import { ADMIN_PROBLEMS, AdminOnly, API_TAG, ApiInterface, ApiProblems, JobRunner } from '@app/common';

export class JobsRunResponseDto {
  @ApiProperty({ type: [String], description: 'The jobs that ran, in order' })
  ran: string[];
}

@ApiInterface(API_TAG.admin)
@AdminOnly()
@ApiProblems(...ADMIN_PROBLEMS)
@Controller('admin/jobs')
export class AdminJobsController {
  constructor(private readonly jobs: JobRunner) {}

  @Post('run')
  @HttpCode(200)
  @ApiOperation({
    summary: "Run every scheduled job once, now, for this sandbox",
    description:
      "Runs this sandbox's jobs only, on its clock (contract §13 Time and jobs). Waits for a run of this sandbox's job on another instance instead of skipping it, never for a scheduled pass over every sandbox, and answers when all are done (contract §6).",
  })
  @ApiOkResponse({ type: JobsRunResponseDto })
  @ApiProblems({
    status: 500,
    code: 'INTERNAL_ERROR',
    description: 'A job failed: the others still ran, and the cause is in the service log (contract §6)',
    message: 'An unexpected error occurred. It has been logged.',
  })
  async runJobs(): Promise<JobsRunResponseDto> {
    return { ran: await this.jobs.runAllNow() };
  }
}
