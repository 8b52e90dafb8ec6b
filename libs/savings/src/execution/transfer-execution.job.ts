import { Injectable, OnModuleInit } from '@nestjs/common';
import { type DueWork, JobRegistry, type SandboxJob } from '@app/common';
import { TransferExecutionService } from './transfer-execution.service';

/** Books due transfers and recurring occurrences every JOBS_INTERVAL_MS (contract §6, §10). */
@Injectable()
export class TransferExecutionJob implements SandboxJob, OnModuleInit {
  readonly name = 'transfer-execution';

  constructor(
    private readonly registry: JobRegistry,
    private readonly execution: TransferExecutionService,
  ) {}

  onModuleInit(): void {
    this.registry.register(this);
  }

  async run(): Promise<void> {
    await this.execution.executeDue();
  }

  due(): DueWork {
    return this.execution.dueWork();
  }
}
