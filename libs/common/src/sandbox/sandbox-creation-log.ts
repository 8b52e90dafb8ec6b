import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { SandboxContext } from './sandbox-context';

/** The self-service window (contract §13: a sliding 60 real minutes). */
const WINDOW = `interval '60 minutes'`;
/** Old rows pruned per creation: each creation adds one row and removes up to this many, so the table shrinks to the window. */
const PRUNE_BATCH = 100;

/** A caller's self-service creations within the window. */
export interface CallerWindow {
  count: number;
  /** Whole seconds until the oldest of them leaves the window (0: none in it). */
  secondsUntilRoom: number;
}

/**
 * `sandbox_creation`: the self-service creations per caller (contract §13 Self-service: an IPv4
 * address or an IPv6 /64, selfServiceCallerOf; the column is still named `caller_ip`), the service's
 * own table, not a sandbox's data. Real time is the database's `now()` (the window is real minutes,
 * the same on every instance; a sandbox clock has nothing to say about it). Call it inside the
 * reservation's transaction after the creation lock (SandboxRegistry.countForCreation), so
 * concurrent creations from several instances count one after another, and a refused creation
 * rolls back with nothing written; a creation whose seeding fails takes its row back (`forget`).
 */
@Injectable()
export class SandboxCreationLog {
  constructor(private readonly dataSource: DataSource) {}

  async window(caller: string): Promise<CallerWindow> {
    const rows: Array<{ n: number | string; wait: number | string | null }> = await this.manager.query(
      `SELECT count(*) AS n, ceil(extract(epoch FROM min(created_at) + ${WINDOW} - now())) AS wait
         FROM sandbox_creation WHERE caller_ip = $1 AND created_at > now() - ${WINDOW}`,
      [caller],
    );
    return { count: Number(rows[0].n), secondsUntilRoom: Math.max(0, Number(rows[0].wait ?? 0)) };
  }

  /** Records one creation (of `sandboxId`) and prunes a bounded batch of rows that left the window. */
  async record(caller: string, sandboxId: string): Promise<void> {
    await this.manager.query(`INSERT INTO sandbox_creation (caller_ip, created_at, created_sandbox_id) VALUES ($1, now(), $2)`, [caller, sandboxId]);
    await this.manager.query(
      `DELETE FROM sandbox_creation WHERE ctid = ANY(ARRAY(
         SELECT ctid FROM sandbox_creation WHERE created_at <= now() - ${WINDOW} LIMIT ${PRUNE_BATCH}))`,
    );
  }

  /** Takes back the row of a creation that did not happen after all (its seeding failed): nothing of it stays. */
  async forget(sandboxId: string): Promise<void> {
    await this.manager.query(`DELETE FROM sandbox_creation WHERE created_sandbox_id = $1`, [sandboxId]);
  }

  /** The context's transaction when one is open (the embedded database has one connection). */
  private get manager(): EntityManager {
    return (SandboxContext.active ? SandboxContext.current().manager : undefined) ?? this.dataSource.manager;
  }
}
