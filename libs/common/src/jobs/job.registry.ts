import { Injectable } from '@nestjs/common';
import { SandboxJob } from './sandbox-job';

@Injectable()
export class JobRegistry {
  private readonly jobs = new Map<string, SandboxJob>();

  register(job: SandboxJob): void {
    if (this.jobs.has(job.name)) throw new Error(`Job ${job.name} registered twice`);
    this.jobs.set(job.name, job);
  }

  all(): SandboxJob[] {
    return [...this.jobs.values()];
  }
}
