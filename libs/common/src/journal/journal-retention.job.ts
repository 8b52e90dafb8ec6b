import { Injectable, OnModuleInit } from '@nestjs/common';
import { SandboxConfig } from '../config/sandbox-config';
import { deleteInBatches } from '../jobs/delete-in-batches';
import { JobRegistry } from '../jobs/job.registry';
import type { ServiceJob } from '../jobs/sandbox-job';
import { JournalStore } from './journal-store';

/** Rows per DELETE: each statement is short, so no lock is held long (issue 16). */
const PRUNE_BATCH = 1000;

/**
 * Journal retention (contract §14): the newest JOURNAL_MAX_ENTRIES per sandbox, none older than
 * JOURNAL_DAYS real days. Set-based over every sandbox at once, in bounded batches: a service job of
 * each scheduled pass.
 */
@Injectable()
export class JournalRetentionJob implements ServiceJob, OnModuleInit {
  readonly name = 'journal-retention';

  constructor(
    private readonly store: JournalStore,
    private readonly config: SandboxConfig,
    private readonly jobs: JobRegistry,
  ) {}

  onModuleInit(): void {
    this.jobs.registerServiceJob(this);
  }

  async run(): Promise<void> {
    await deleteInBatches((limit) => this.store.pruneOlderThan(this.config.journalDays, limit), PRUNE_BATCH);
    await deleteInBatches((limit) => this.store.pruneBeyond(this.config.journalMaxEntries, limit), PRUNE_BATCH);
  }
}
