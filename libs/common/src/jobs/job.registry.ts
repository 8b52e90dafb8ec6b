import { Injectable } from '@nestjs/common';
import { SandboxJob, ServiceJob } from './sandbox-job';

@Injectable()
export class JobRegistry {
  private readonly jobs = new Map<string, SandboxJob>();
  private readonly serviceJobs = new Map<string, ServiceJob>();

  register(job: SandboxJob): void {
    if (this.jobs.has(job.name) || this.serviceJobs.has(job.name)) throw new Error(`Job ${job.name} registered twice`);
    this.jobs.set(job.name, job);
  }

  registerServiceJob(job: ServiceJob): void {
    if (this.jobs.has(job.name) || this.serviceJobs.has(job.name)) throw new Error(`Job ${job.name} registered twice`);
    this.serviceJobs.set(job.name, job);
  }

  all(): SandboxJob[] {
    return [...this.jobs.values()];
  }

  allServiceJobs(): ServiceJob[] {
    return [...this.serviceJobs.values()];
  }
}
