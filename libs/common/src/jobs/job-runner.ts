import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { SandboxClock } from '../clock/sandbox-clock';
import { SandboxConfig } from '../config/sandbox-config';
import { DEFAULT_SANDBOX_ID, SandboxContext } from '../sandbox/sandbox-context';
import { JobLeaseRepository } from './job-lease.repository';
import { JobRegistry } from './job.registry';
import { SandboxJob } from './sandbox-job';

const CLAIM_RETRY_MS = 50;
/**
 * How long POST /admin/jobs/run waits for a job held elsewhere. Its holder renews the lease while the
 * job runs, so the wait lasts as long as that run (a crashed holder's lease lapses in JOB_LEASE_MS).
 */
const CLAIM_WAIT_LIMIT_MS = 120_000;
const INTERVAL_NAME = 'sandbox-jobs';

export class JobClaimTimeout extends Error {
  constructor(job: string) {
    super(`Job ${job} stayed claimed by another instance for longer than ${CLAIM_WAIT_LIMIT_MS} ms`);
  }
}

export class JobsFailed extends Error {
  constructor(readonly jobs: string[]) {
    super(`Job(s) failed: ${jobs.join(', ')} (the causes are logged)`);
  }
}

/**
 * Runs every registered job each JOBS_INTERVAL_MS (contract §6), each run claiming its job in the
 * database first; a job claimed elsewhere is skipped until the next tick. `runAllNow` (POST
 * /admin/jobs/run) waits for such a claim instead of skipping.
 */
@Injectable()
export class JobRunner implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(JobRunner.name);
  /** This instance, as a lease holder. */
  private readonly holder = randomUUID();
  private ticking = false;

  constructor(
    private readonly registry: JobRegistry,
    private readonly leases: JobLeaseRepository,
    private readonly clock: SandboxClock,
    private readonly config: SandboxConfig,
    private readonly scheduler: SchedulerRegistry,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.config.databaseUrl) {
      // The embedded database admits one process (its data-folder lock): a lease found now was left
      // by an earlier process that died holding it, and no one will ever release it.
      const broken = await this.leases.breakAll();
      if (broken > 0) this.logger.warn({ leases: broken }, 'job leases left by an earlier process were freed');
    }
    if (this.config.jobsIntervalMs <= 0) return;
    const timer = setInterval(() => void this.tick(), this.config.jobsIntervalMs);
    timer.unref();
    this.scheduler.addInterval(INTERVAL_NAME, timer);
  }

  onApplicationShutdown(): void {
    if (this.scheduler.doesExist('interval', INTERVAL_NAME)) this.scheduler.deleteInterval(INTERVAL_NAME);
  }

  /** One scheduled pass: every job whose lease is free; a pass still running skips the next. */
  async tick(): Promise<void> {
    if (this.ticking) return;
    this.ticking = true;
    try {
      for (const job of this.registry.all()) {
        // One failing job (already logged) must not keep the others from running.
        await this.tryRun(job).catch(() => undefined);
      }
    } finally {
      this.ticking = false;
    }
  }

  private async tryRun(job: SandboxJob): Promise<void> {
    if (await this.leases.claim(job.name, this.holder, this.config.jobLeaseMs)) await this.runClaimed(job, DEFAULT_SANDBOX_ID);
  }

  /**
   * Every job once, now, each after its claim (waiting while another instance holds it), for the
   * caller's sandbox (`POST /sandboxes/{id}/admin/jobs/run` runs that sandbox's jobs only, contract
   * §13; the default sandbox's outside a request). A failing job does not keep the others from
   * running; the failure is reported after all have run.
   */
  async runAllNow(): Promise<string[]> {
    const sandboxId = SandboxContext.active ? SandboxContext.sandboxId : DEFAULT_SANDBOX_ID;
    const ran: string[] = [];
    const failed: string[] = [];
    for (const job of this.registry.all()) {
      await this.claimWaiting(job.name);
      await this.runClaimed(job, sandboxId).then(
        () => ran.push(job.name),
        () => failed.push(job.name),
      );
    }
    if (failed.length > 0) throw new JobsFailed(failed);
    return ran;
  }

  private async claimWaiting(job: string): Promise<void> {
    // Waiting is measured on the monotonic process clock: it guards a process, not a bank rule.
    const started = performance.now();
    while (!(await this.leases.claim(job, this.holder, this.config.jobLeaseMs))) {
      if (performance.now() - started > CLAIM_WAIT_LIMIT_MS) throw new JobClaimTimeout(job);
      await delay(CLAIM_RETRY_MS);
    }
  }

  private async runClaimed(job: SandboxJob, sandboxId: string): Promise<void> {
    const renewal = setInterval(() => void this.renew(job.name), this.config.jobLeaseRenewMs);
    renewal.unref();
    try {
      // Scheduled passes serve the default sandbox for now; set-based passes over every sandbox
      // come next (contract §13 Time and jobs). A request's run serves its own sandbox.
      await SandboxContext.run(sandboxId, async () => {
        await this.clock.sync();
        await job.run();
      });
    } catch (error) {
      this.logger.error({ err: error, job: job.name }, 'job failed');
      throw error;
    } finally {
      clearInterval(renewal);
      await this.leases.release(job.name, this.holder);
    }
  }

  /** Keeps the lease of a running job; a lost one (this process stalled past it) is logged. */
  private async renew(job: string): Promise<void> {
    try {
      if (!(await this.leases.renew(job, this.holder, this.config.jobLeaseMs))) {
        this.logger.error({ job }, 'job lease lost while the job ran: another instance may run it too');
      }
    } catch (error) {
      this.logger.warn({ err: error, job }, 'job lease renewal failed; retried at the next interval');
    }
  }
}
