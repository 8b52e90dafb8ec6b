import { MigrationInterface, QueryRunner } from 'typeorm';

/** [index, table, columns, predicate]: the due-work indexes, led by the sandbox (see below). */
const DUE_INDEXES: ReadonlyArray<readonly [string, string, string, string]> = [
  ['eid_order_open_idx', 'eid_order', 'sandbox_id, started_at', `status IN ('INITIATED', 'PENDING')`],
  ['transfer_due_idx', 'transfer', 'sandbox_id, transfer_date', `status = 'SIGNED'`],
  ['recurring_transfer_active_idx', 'recurring_transfer', 'sandbox_id, reference_id', `status = 'ACTIVE'`],
  ['pre_approval_processing_idx', 'pre_approval', 'sandbox_id, processing_at', `status = 'PROCESSING'`],
  ['pre_approval_expiry_idx', 'pre_approval', 'sandbox_id, expiry_date', `status IN ('OFFER_GENERATED', 'AWAITING_ACCEPTANCE', 'SIGNING_ONGOING')`],
  ['loan_application_processing_idx', 'loan_application', 'sandbox_id, processing_at', `status = 'PROCESSING'`],
];

/** The same indexes as the earlier migrations created them, without the sandbox. */
const OLD_COLUMNS: Record<string, string> = {
  eid_order_open_idx: 'started_at',
  transfer_due_idx: 'transfer_date',
  recurring_transfer_active_idx: 'reference_id',
  pre_approval_processing_idx: 'processing_at',
  pre_approval_expiry_idx: 'expiry_date',
  loan_application_processing_idx: 'processing_at',
};

/**
 * Issue 15 (contract §13 Time and jobs): scheduled jobs find the due work of every sandbox in one
 * statement, each row judged by its own sandbox's clock.
 * - `sandbox_now`: each sandbox's time, the one SQL spelling of contract §6's
 *   now = sandbox_anchor + (frozen ? 0 : real now − real_anchor), real now being the database's
 *   clock_timestamp() (the clock anchors are written with it, so no process clock enters).
 * - `sandbox_job_lease`: which instance runs which job for which sandbox right now (a scheduled
 *   pass claims the due sandboxes in its finding statement; `POST /sandboxes/{id}/admin/jobs/run`
 *   claims its own sandbox's, so it never waits for a pass over every sandbox). A row lives while
 *   the run does; the sandbox's deletion takes it along.
 * - The due-work partial indexes lead with sandbox_id, serving both the per-sandbox statements of
 *   the jobs and the cross-sandbox finding (a probe per sandbox at its own time).
 * - `sandbox_idle_idx`: the idle-expiry job's scan by last_used_at.
 */
export class JobsDueWorkAcrossSandboxes1763800017000 implements MigrationInterface {
  name = 'JobsDueWorkAcrossSandboxes1763800017000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const q = (sql: string) => queryRunner.query(sql);
    await q(`
      CREATE VIEW sandbox_now AS
      SELECT sandbox_id,
             CASE WHEN sandbox_anchor IS NULL OR real_anchor IS NULL THEN clock_timestamp()
                  WHEN frozen THEN sandbox_anchor
                  ELSE sandbox_anchor + (clock_timestamp() - real_anchor) END AS now
        FROM sandbox_clock`);
    await q(`
      CREATE TABLE sandbox_job_lease (
        sandbox_id text NOT NULL REFERENCES sandbox (id) ON DELETE CASCADE,
        job text NOT NULL,
        holder text NOT NULL,
        leased_until timestamptz NOT NULL,
        PRIMARY KEY (sandbox_id, job)
      )`);
    await q(`CREATE INDEX sandbox_job_lease_holder_idx ON sandbox_job_lease (holder)`);
    for (const [index, table, columns, predicate] of DUE_INDEXES) {
      await q(`DROP INDEX ${index}`);
      await q(`CREATE INDEX ${index} ON ${table} (${columns}) WHERE ${predicate}`);
    }
    await q(`CREATE INDEX sandbox_idle_idx ON sandbox (last_used_at) WHERE id <> 'default'`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const q = (sql: string) => queryRunner.query(sql);
    await q(`DROP INDEX sandbox_idle_idx`);
    for (const [index, table, , predicate] of DUE_INDEXES) {
      await q(`DROP INDEX ${index}`);
      await q(`CREATE INDEX ${index} ON ${table} (${OLD_COLUMNS[index]}) WHERE ${predicate}`);
    }
    await q(`DROP TABLE sandbox_job_lease`);
    await q(`DROP VIEW sandbox_now`);
  }
}
