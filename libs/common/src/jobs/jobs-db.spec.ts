import type { DataSource } from 'typeorm';
import { SandboxContext } from '../sandbox/sandbox-context';
import { SandboxDb, UnscopedStatement } from '../sandbox/sandbox-db';
import { JobsDb, NotADueQuery } from './jobs-db';

/** A data source that records what it is sent and answers no rows. */
function recordingDataSource() {
  const sent: Array<{ sql: string; parameters: unknown[] }> = [];
  const query = (sql: string, parameters: unknown[] = []) => {
    sent.push({ sql, parameters });
    return Promise.resolve([]);
  };
  return { dataSource: { query, manager: { query } } as unknown as DataSource, sent };
}

const DUE = `SELECT o.sandbox_id FROM eid_order o JOIN sandbox_now n ON n.sandbox_id = o.sandbox_id WHERE o.started_at <= n.now - make_interval(secs => $1)`;

describe('JobsDb, the one door for statements across sandboxes (contract §13 Time and jobs)', () => {
  it('runs a job\'s due SELECT only as a subquery of its claim, its parameters first', async () => {
    const { dataSource, sent } = recordingDataSource();
    await new JobsDb(dataSource).claimDueSandboxes('eid-order-expiry', { sql: DUE, parameters: [30] }, 'holder-1', 10_000, 250);
    expect(sent).toHaveLength(1);
    expect(sent[0].sql).toContain(`FROM (${DUE}) AS found`);
    expect(sent[0].parameters).toEqual([30, 'eid-order-expiry', 'holder-1', 10_000, 250]);
    expect(sent[0].sql).toContain('LIMIT $5');
  });

  it.each([
    ['a statement that writes', `DELETE FROM sandbox RETURNING id AS sandbox_id`],
    ['a second statement after a SELECT', `SELECT sandbox_id FROM sandbox_now; DELETE FROM sandbox`],
    ['a CTE that could write', `WITH gone AS (DELETE FROM sandbox RETURNING id) SELECT id AS sandbox_id FROM gone`],
    ['a search that does not judge by the sandboxes\' clocks', `SELECT sandbox_id FROM eid_order WHERE started_at <= now()`],
    ['a SELECT of something else than sandbox ids', `SELECT personal_number FROM sandbox_user JOIN sandbox_now n USING (sandbox_id)`],
  ])('refuses %s and sends nothing', async (_case, sql) => {
    const { dataSource, sent } = recordingDataSource();
    await expect(new JobsDb(dataSource).claimDueSandboxes('job', { sql }, 'holder-1', 10_000, 250)).rejects.toThrow(NotADueQuery);
    expect(sent).toEqual([]);
  });

  it('is the only door: SandboxDb still refuses the same statement, which names no sandbox (contract §13 Isolation)', async () => {
    const { dataSource, sent } = recordingDataSource();
    await SandboxContext.run('default', async () => {
      await expect(new SandboxDb(dataSource).query(DUE, [30])).rejects.toThrow(UnscopedStatement);
    });
    expect(sent).toEqual([]);
  });
});
