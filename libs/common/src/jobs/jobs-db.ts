import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { SandboxRead } from '../clock/clock.repository';
import type { DueWork } from './sandbox-job';

/**
 * A job's due statement: one plain SELECT (no other statement, nothing written) of sandbox ids that
 * reads each sandbox's time from sandbox_now. Such SQL names no one sandbox, so SandboxDb refuses it;
 * it runs only here.
 */
const DUE_QUERY = /^\s*SELECT\s+(?:[a-z_]+\.)?sandbox_id\s+FROM\s[^;]*\bsandbox_now\b[^;]*$/i;

export function isDueWorkQuery(sql: string): boolean {
  return DUE_QUERY.test(sql);
}

export class NotADueQuery extends Error {
  constructor(job: string) {
    super(`Job ${job}: its due work must be one SELECT of sandbox_id reading sandbox_now (contract §13 Time and jobs)`);
  }
}

/**
 * The one door for statements that span sandboxes (contract §13 Time and jobs), beside SandboxDb,
 * which refuses them: the scheduled passes' search for due work. It runs a job's due SELECT only as
 * a subquery (which cannot write) and answers sandbox ids only, claiming each found sandbox's lease
 * for the job in the same statement, so two instances never take the same sandbox's job at once and
 * the cost does not grow with the number of sandboxes. Only JobRunner uses it.
 */
@Injectable()
export class JobsDb {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Up to `limit` sandboxes with `job` due, claimed for `holder` for `leaseMs` (database time), each
   * with its clock row as read then (the run's clock, SandboxClock.adoptRead). A sandbox whose lease
   * is held elsewhere, or which is being deleted, is left out.
   */
  async claimDueSandboxes(job: string, due: DueWork, holder: string, leaseMs: number, limit: number): Promise<DueSandbox[]> {
    if (!isDueWorkQuery(due.sql)) throw new NotADueQuery(job);
    const parameters = due.parameters ?? [];
    const $ = (i: number) => `$${parameters.length + i}`;
    // The rows are read during the statement: stamping them with its start errs on the stale side.
    const readAtMs = Date.now();
    const rows: ClaimedRow[] = await this.dataSource.query(
      `WITH due AS (
         SELECT s.id FROM sandbox s
          WHERE s.id IN (SELECT found.sandbox_id FROM (${due.sql}) AS found)
            AND NOT EXISTS (SELECT 1 FROM sandbox_job_lease l WHERE l.sandbox_id = s.id AND l.job = ${$(1)} AND l.leased_until >= clock_timestamp())
          LIMIT ${$(4)}
            FOR KEY SHARE SKIP LOCKED),
       claimed AS (
         INSERT INTO sandbox_job_lease (sandbox_id, job, holder, leased_until)
         SELECT id, ${$(1)}, ${$(2)}, clock_timestamp() + make_interval(secs => ${$(3)}::double precision / 1000) FROM due
         ON CONFLICT (sandbox_id, job) DO UPDATE SET holder = EXCLUDED.holder, leased_until = EXCLUDED.leased_until
          WHERE sandbox_job_lease.leased_until < clock_timestamp()
         RETURNING sandbox_id)
       SELECT c.sandbox_id, c.sandbox_anchor, c.real_anchor, c.frozen, s.generation::text AS generation, s.downtime_calendar
         FROM claimed JOIN sandbox_clock c ON c.sandbox_id = claimed.sandbox_id JOIN sandbox s ON s.id = claimed.sandbox_id`,
      [...parameters, job, holder, leaseMs, limit],
    );
    return rows.map((row) => ({
      sandboxId: row.sandbox_id,
      readAtMs,
      clock: {
        sandboxAnchor: row.sandbox_anchor === null ? null : new Date(row.sandbox_anchor),
        realAnchor: row.real_anchor === null ? null : new Date(row.real_anchor),
        frozen: row.frozen,
        generation: row.generation,
        downtimeCalendar: row.downtime_calendar,
      },
    }));
  }
}

interface ClaimedRow {
  sandbox_id: string;
  sandbox_anchor: Date | string | null;
  real_anchor: Date | string | null;
  frozen: boolean;
  generation: string;
  downtime_calendar: boolean | null;
}

/** A sandbox claimed for a job's run, with its clock row as read at `readAtMs` (process time). */
export interface DueSandbox {
  sandboxId: string;
  clock: SandboxRead;
  readAtMs: number;
}
