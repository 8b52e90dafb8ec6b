import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { returnedRows } from '../database/returned-rows';

/**
 * Row leases in job_lease: one row per job, claimed by one instance at a time with a single
 * conditional upsert, so several instances on one database never run a job twice at once. A lease
 * is short and its holder renews it while the job runs, so one left by a crashed instance expires
 * within seconds. Lease times are real (database) time, not sandbox time: they guard processes, not
 * bank rules.
 */
@Injectable()
export class JobLeaseRepository {
  constructor(private readonly dataSource: DataSource) {}

  async claim(job: string, holder: string, leaseMs: number): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `INSERT INTO job_lease (name, holder, leased_until)
       VALUES ($1, $2, clock_timestamp() + make_interval(secs => $3::double precision / 1000))
       ON CONFLICT (name) DO UPDATE
          SET holder = EXCLUDED.holder, leased_until = EXCLUDED.leased_until
        WHERE job_lease.holder IS NULL OR job_lease.leased_until < clock_timestamp()
       RETURNING name`,
      [job, holder, leaseMs],
    );
    return rows.length === 1;
  }

  /** Extends a lease this holder still has; false when it lost it (expired and claimed elsewhere). */
  async renew(job: string, holder: string, leaseMs: number): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `UPDATE job_lease SET leased_until = clock_timestamp() + make_interval(secs => $3::double precision / 1000)
        WHERE name = $1 AND holder = $2
       RETURNING name`,
      [job, holder, leaseMs],
    );
    return returnedRows(rows).length === 1;
  }

  /**
   * Frees every lease. Only for the embedded database at start: its data-folder lock lets one process
   * at a time open it, so a lease found then was left by an earlier process that died holding it.
   */
  async breakAll(): Promise<number> {
    const rows: unknown[] = await this.dataSource.query(
      `UPDATE job_lease SET holder = NULL, leased_until = NULL WHERE holder IS NOT NULL RETURNING name`,
    );
    const sandboxRows: unknown[] = await this.dataSource.query(`DELETE FROM sandbox_job_lease RETURNING job`);
    return returnedRows(rows).length + returnedRows(sandboxRows).length;
  }

  // One sandbox's lease on one job (sandbox_job_lease): taken by POST /sandboxes/{id}/admin/jobs/run
  // for its sandbox, and by a scheduled pass for each sandbox it found due work in (JobsDb), so the
  // two never run one sandbox's job at once and neither waits for the other's other sandboxes. A row
  // lives while its run does.

  async claimSandbox(sandboxId: string, job: string, holder: string, leaseMs: number): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `INSERT INTO sandbox_job_lease (sandbox_id, job, holder, leased_until)
       VALUES ($1, $2, $3, clock_timestamp() + make_interval(secs => $4::double precision / 1000))
       ON CONFLICT (sandbox_id, job) DO UPDATE
          SET holder = EXCLUDED.holder, leased_until = EXCLUDED.leased_until
        WHERE sandbox_job_lease.leased_until < clock_timestamp()
       RETURNING job`,
      [sandboxId, job, holder, leaseMs],
    );
    return rows.length === 1;
  }

  async renewSandbox(sandboxId: string, job: string, holder: string, leaseMs: number): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `UPDATE sandbox_job_lease SET leased_until = clock_timestamp() + make_interval(secs => $4::double precision / 1000)
        WHERE sandbox_id = $1 AND job = $2 AND holder = $3
       RETURNING job`,
      [sandboxId, job, holder, leaseMs],
    );
    return returnedRows(rows).length === 1;
  }

  /** Releases the holder's leases on the job in these sandboxes at once (a pass's batch). */
  async releaseSandboxes(sandboxIds: readonly string[], job: string, holder: string): Promise<void> {
    await this.dataSource.query(`DELETE FROM sandbox_job_lease WHERE sandbox_id = ANY($1::text[]) AND job = $2 AND holder = $3`, [sandboxIds, job, holder]);
  }

  async releaseSandbox(sandboxId: string, job: string, holder: string): Promise<void> {
    await this.dataSource.query(`DELETE FROM sandbox_job_lease WHERE sandbox_id = $1 AND job = $2 AND holder = $3`, [sandboxId, job, holder]);
  }

  async release(job: string, holder: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE job_lease SET holder = NULL, leased_until = NULL, last_run_at = clock_timestamp()
        WHERE name = $1 AND holder = $2`,
      [job, holder],
    );
  }
}
