import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { SandboxContext } from './sandbox-context';

/** Other instances see a change within this long (contract §6 and §13: within one second). */
const MAX_STALENESS_MS = 900;
/** The change log keeps a minute or more (pruned past PRUNE_AFTER, by every instance once a minute). */
const PRUNE_EVERY_MS = 60_000;
const PRUNE_AFTER = `interval '3 minutes'`;
/** An instance that has not read the log for this long may have missed pruned rows: it forgets everything. */
const LOG_REACH_MS = 120_000;
const PRUNE_BATCH = 10_000;

/** Told which sandboxes changed, to drop what it caches of them. */
export interface SandboxChangeListener {
  /** `null`: any sandbox may have changed (first read, or the log no longer reaches the last read). */
  sandboxesChanged(sandboxIds: ReadonlySet<string> | null): void;
}

/**
 * "What changed since" for this instance's caches of sandboxes (the clock row, generation and
 * downtime setting SandboxClock keeps, the existence SandboxRegistry keeps; contract §6, §13).
 * Triggers log every change to those rows with its transaction id (migration 1763800020000); one
 * read at most every MAX_STALENESS_MS, shared by every request of the instance, returns the
 * sandboxes changed since the last read however many sandboxes exist. The read position is the
 * oldest transaction still running at the last read (its snapshot's xmin), so a change committed
 * late by a long transaction is still seen. Idle instances read nothing.
 */
@Injectable()
export class SandboxChanges {
  private readonly logger = new Logger(SandboxChanges.name);
  private readonly listeners: SandboxChangeListener[] = [];
  /** The snapshot xmin of the last read (xid8 as text); null before the first read. */
  private position: string | null = null;
  private readAtMs = Number.NEGATIVE_INFINITY;
  private prunedAtMs = Number.NEGATIVE_INFINITY;
  private inFlight: Promise<void> | null = null;

  constructor(private readonly dataSource: DataSource) {}

  subscribe(listener: SandboxChangeListener): void {
    this.listeners.push(listener);
  }

  /**
   * Reads the log if the last read may be stale; concurrent callers share one read. Nothing to
   * await (undefined) while the last read is fresh: the hot path takes no extra turn.
   */
  // Date.now() here times this instance's polling (process time, not a bank rule).
  sync(): Promise<void> | undefined {
    if (Date.now() - this.readAtMs < MAX_STALENESS_MS) return undefined;
    this.inFlight ??= this.read().finally(() => (this.inFlight = null));
    return this.inFlight;
  }

  private async read(): Promise<void> {
    const startedAtMs = Date.now();
    const rows: Array<{ position: string; changed: string[] }> = await this.manager.query(
      `SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS position,
              ARRAY(SELECT DISTINCT sandbox FROM sandbox_change WHERE xid >= $1::xid8) AS changed`,
      [this.position ?? '0'],
    );
    const reached = this.position !== null && startedAtMs - this.readAtMs < LOG_REACH_MS;
    const changed = reached ? new Set(rows[0].changed) : null;
    this.position = rows[0].position;
    this.readAtMs = startedAtMs;
    if (changed === null || changed.size > 0) for (const listener of this.listeners) listener.sandboxesChanged(changed);
    if (startedAtMs - this.prunedAtMs >= PRUNE_EVERY_MS) {
      this.prunedAtMs = startedAtMs;
      await this.prune().catch((error: unknown) => this.logger.warn({ err: error }, 'pruning the sandbox change log failed; retried in a minute'));
    }
  }

  /** Drops log rows no instance reads any more, in one bounded batch (each instance, once a minute). */
  async prune(): Promise<void> {
    await this.manager.query(
      `DELETE FROM sandbox_change WHERE ctid = ANY(ARRAY(
         SELECT ctid FROM sandbox_change WHERE changed_at < clock_timestamp() - ${PRUNE_AFTER} LIMIT ${PRUNE_BATCH}))`,
    );
  }

  /** The context's transaction when one is open (the embedded database has one connection). */
  private get manager() {
    return (SandboxContext.active ? SandboxContext.current().manager : undefined) ?? this.dataSource.manager;
  }
}
