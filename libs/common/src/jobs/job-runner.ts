import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { SandboxClock } from '../clock/sandbox-clock';
import { SandboxConfig } from '../config/sandbox-config';
import { DEFAULT_SANDBOX_ID, SandboxContext } from '../sandbox/sandbox-context';
import { SandboxRegistry } from '../sandbox/sandbox-registry';
import { JobLeaseRepository } from './job-lease.repository';
import { JobRegistry } from './job.registry';
import { type DueSandbox, JobsDb } from './jobs-db';
import { SandboxJob } from './sandbox-job';

const CLAIM_RETRY_MS = 50;
/**
 * How long POST /admin/jobs/run waits for its sandbox's job held elsewhere. Its holder renews the lease
 * while the job runs, so the wait lasts as long as that run (a crashed holder's lease lapses in JOB_LEASE_MS).
 */
const CLAIM_WAIT_LIMIT_MS = 120_000;
const INTERVAL_NAME = 'sandbox-jobs';
/** A pass's cap on sandboxes per job: the rest wait for the next tick (they stay due). */
const DUE_SANDBOXES_PER_PASS = 250;
/** Sandboxes a pass works in side by side (of the pool's 10 connections; requests keep the rest). */
const SANDBOXES_AT_ONCE = 4;
/** Idle sandboxes deleted per pass (each deletion cascades over all its data). */
const IDLE_SANDBOXES_PER_PASS = 20;
/** The global lease of the idle-expiry step of a pass (contract §13 Lifecycle). */
const IDLE_EXPIRY_JOB = 'sandbox-idle-expiry';

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
 * Runs every registered job each JOBS_INTERVAL_MS (contract §6) for every sandbox with work due
 * (contract §13 Time and jobs). A scheduled pass claims its job in the database first (a job claimed
 * elsewhere is skipped until the next tick), then finds and claims the sandboxes with due work in
 * one statement (JobsDb), and runs the job in each of them, on that sandbox's clock: its cost is a
 * few statements per job plus the due work, however many sandboxes exist. `runAllNow` (POST
 * /sandboxes/{id}/admin/jobs/run) runs the caller's sandbox's jobs, claiming that sandbox's lease
 * only, so it waits for a run of that same sandbox's job and never for a pass over all sandboxes.
 * Then idle sandboxes are deleted (contract §13 Lifecycle).
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
    private readonly jobsDb: JobsDb,
    private readonly sandboxes: SandboxRegistry,
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

  /** One scheduled pass: every job whose lease is free, then the service's own jobs and idle expiry; a pass still running skips the next. */
  async tick(): Promise<void> {
    if (this.ticking) return;
    this.ticking = true;
    try {
      for (const job of this.registry.all()) {
        // One failing job (already logged) must not keep the others from running.
        await this.whileClaimed(job.name, () => this.runDue(job)).catch(() => undefined);
      }
      for (const job of this.registry.allServiceJobs()) {
        await this.whileClaimed(job.name, () => job.run()).catch((error: unknown) => this.logger.error({ err: error, job: job.name }, 'job failed'));
      }
      await this.whileClaimed(IDLE_EXPIRY_JOB, () => this.expireIdle()).catch(() => undefined);
    } finally {
      this.ticking = false;
    }
  }

  /**
   * Every job once, now, for the caller's sandbox (`POST /sandboxes/{id}/admin/jobs/run` runs that
   * sandbox's jobs only, contract §13; the default sandbox's outside a request), each after claiming
   * that sandbox's lease on it (waiting while another run of it holds the lease). A failing job does
   * not keep the others from running; the failure is reported after all have run.
   */
  async runAllNow(): Promise<string[]> {
    const sandboxId = SandboxContext.active ? SandboxContext.sandboxId : DEFAULT_SANDBOX_ID;
    const ran: string[] = [];
    const failed: string[] = [];
    for (const job of this.registry.all()) {
      await this.claimWaiting(sandboxId, job.name);
      await this.runInSandbox(job, sandboxId).then(
        () => ran.push(job.name),
        () => failed.push(job.name),
      );
    }
    if (failed.length > 0) throw new JobsFailed(failed);
    return ran;
  }

  /** Runs `work` holding the job's global lease (renewed meanwhile), or not at all when it is held elsewhere. */
  private async whileClaimed(job: string, work: () => Promise<void>): Promise<void> {
    if (!(await this.leases.claim(job, this.holder, this.config.jobLeaseMs))) return;
    const renewal = setInterval(() => void this.renew(job), this.config.jobLeaseRenewMs);
    renewal.unref();
    try {
      await work();
    } finally {
      clearInterval(renewal);
      await this.leases.release(job, this.holder);
    }
  }

  /** One batch of the sandboxes with the job due, the job run in each; a failing sandbox (logged) does not stop the rest. */
  private async runDue(job: SandboxJob): Promise<void> {
    const due: DueSandbox[] = await this.jobsDb.claimDueSandboxes(job.name, job.due(), this.holder, this.config.jobLeaseMs, DUE_SANDBOXES_PER_PASS).catch((error: unknown) => {
      this.logger.error({ err: error, job: job.name }, 'job failed to find its due work');
      throw error;
    });
    // Each sandbox's run is a few short statements, most of them commits: on the PostgreSQL server a
    // few run side by side (their commits share the disk's flushes); the embedded database has one
    // connection, so there they run one after another.
    const workers = this.config.databaseUrl ? SANDBOXES_AT_ONCE : 1;
    let next = 0;
    const worker = async () => {
      for (let item = due[next++]; item; item = due[next++]) await this.runInSandbox(job, item.sandboxId, item).catch(() => undefined);
    };
    try {
      await Promise.all(Array.from({ length: Math.min(workers, due.length) }, worker));
    } finally {
      // One statement for the batch (each release is a commit): a run of one of these sandboxes'
      // jobs/run waits at most for the rest of the batch.
      if (due.length > 0) await this.leases.releaseSandboxes(due.map((d) => d.sandboxId), job.name, this.holder);
    }
  }

  private async claimWaiting(sandboxId: string, job: string): Promise<void> {
    // Waiting is measured on the monotonic process clock: it guards a process, not a bank rule.
    const started = performance.now();
    while (!(await this.leases.claimSandbox(sandboxId, job, this.holder, this.config.jobLeaseMs))) {
      if (performance.now() - started > CLAIM_WAIT_LIMIT_MS) throw new JobClaimTimeout(job);
      await delay(CLAIM_RETRY_MS);
    }
  }

  /**
   * Runs the job in the sandbox's context and on its clock, holding the sandbox's lease on it; a
   * request's run releases it after, a pass's with its batch (`claimed`: the clock row read then).
   */
  private async runInSandbox(job: SandboxJob, sandboxId: string, claimed?: DueSandbox): Promise<void> {
    const renewal = setInterval(() => void this.renewSandbox(sandboxId, job.name), this.config.jobLeaseRenewMs);
    renewal.unref();
    try {
      await SandboxContext.run(sandboxId, async () => {
        if (claimed) this.clock.adoptRead(claimed.clock, claimed.readAtMs);
        await this.clock.sync();
        await job.run();
      });
    } catch (error) {
      this.logger.error({ err: error, job: job.name, sandbox_id: sandboxId }, 'job failed');
      throw error;
    } finally {
      clearInterval(renewal);
      if (!claimed) await this.leases.releaseSandbox(sandboxId, job.name, this.holder);
    }
  }

  /** Deletes sandboxes unused for SANDBOX_IDLE_DAYS, a bounded batch per pass (contract §13 Lifecycle). */
  private async expireIdle(): Promise<void> {
    const deleted = await this.sandboxes.deleteIdle(this.config.sandboxIdleDays, IDLE_SANDBOXES_PER_PASS).catch((error: unknown) => {
      this.logger.error({ err: error, job: IDLE_EXPIRY_JOB }, 'job failed');
      throw error;
    });
    if (deleted.length > 0) this.logger.log({ sandboxes: deleted }, `deleted ${deleted.length} sandbox(es) idle for ${this.config.sandboxIdleDays} days`);
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

  private async renewSandbox(sandboxId: string, job: string): Promise<void> {
    try {
      if (!(await this.leases.renewSandbox(sandboxId, job, this.holder, this.config.jobLeaseMs))) {
        this.logger.error({ job, sandbox_id: sandboxId }, 'job lease lost while the job ran: another instance may run it too');
      }
    } catch (error) {
      this.logger.warn({ err: error, job, sandbox_id: sandboxId }, 'job lease renewal failed; retried at the next interval');
    }
  }
}
