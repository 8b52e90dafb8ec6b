import { Injectable, OnModuleInit } from '@nestjs/common';
import { deleteInBatches } from '../jobs/delete-in-batches';
import { JobRegistry } from '../jobs/job.registry';
import type { ServiceJob } from '../jobs/sandbox-job';
import { IdempotencyStore } from './idempotency.store';

/** Records per DELETE: each statement is short, so no lock is held long. */
const EXPIRY_BATCH = 1000;

/**
 * Removes the Idempotency-Key records past their 24 hours (contract §15), each judged by its own
 * sandbox's clock: set-based over every sandbox at once, in bounded batches, a service job of each
 * scheduled pass (an expired record is already ignored by a retry, which takes it over).
 */
@Injectable()
export class IdempotencyExpiryJob implements ServiceJob, OnModuleInit {
  readonly name = 'idempotency-expiry';

  constructor(
    private readonly store: IdempotencyStore,
    private readonly jobs: JobRegistry,
  ) {}

  onModuleInit(): void {
    this.jobs.registerServiceJob(this);
  }

  async run(): Promise<void> {
    await deleteInBatches((limit) => this.store.deleteExpired(limit), EXPIRY_BATCH);
  }
}
