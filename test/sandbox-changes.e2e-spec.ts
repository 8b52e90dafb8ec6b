import { DataSource } from 'typeorm';
import { SandboxChanges } from '@app/common';
import { ADMIN_KEY, createTestApp, recordStatements, TestApp } from './support/test-app';

const operator = { Authorization: `Bearer ${ADMIN_KEY}` };

/**
 * What an instance caches of its sandboxes (clock rows, existence) is refreshed by one read of the
 * change log a second, however many sandboxes exist (contract §6, §13 Scale; issue 15).
 */
describe('contract §13 Scale: one change-log read refreshes every cached sandbox', () => {
  let t: TestApp;
  let statements: string[];
  beforeAll(async () => {
    t = await createTestApp();
    statements = recordStatements(t);
  });
  afterAll(() => t.close());

  const createSandbox = async (): Promise<string> =>
    ((await t.http.post('/sandboxes').set(operator).send({ name: 'cached', seed_demo: false, downtime_calendar: true }).expect(201)).body as { sandbox_id: string })
      .sandbox_id;
  /** The planned-downtime window in force by the sandbox's cached clock (GET /admin/clock re-reads the row; this does not). */
  const activeWindow = async (sandboxId: string): Promise<unknown> =>
    ((await t.http.get(`/sandboxes/${sandboxId}/sandbox/maintenance-windows`).expect(200)).body as { active: unknown }).active;

  it('requests to sandboxes already read cost no clock or existence read while nothing changed', async () => {
    const sandboxes = [];
    for (let i = 0; i < 5; i++) sandboxes.push(await createSandbox());
    // Settle: the creations are changes too; once the log has been read after them, every sandbox is read once more.
    statements.length = 0;
    while (!statements.some((sql) => /\bsandbox_change\b/.test(sql))) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      await activeWindow(sandboxes[0]);
    }
    for (const sandboxId of sandboxes) await activeWindow(sandboxId);
    statements.length = 0;
    // Rounds a second apart: a copy that expired by age would be read again each round.
    for (let round = 0; round < 3; round++) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      for (const sandboxId of sandboxes) await activeWindow(sandboxId);
    }
    expect(statements.filter((sql) => /\bFROM sandbox_clock\b/i.test(sql))).toEqual([]);
    expect(statements.filter((sql) => /\bFROM sandbox WHERE id\b/i.test(sql))).toEqual([]);
    // Only the change log, at most once a round for all of them.
    expect(statements.filter((sql) => /\bsandbox_change\b/.test(sql)).length).toBeLessThanOrEqual(3);
    // Besides, only the request journal's batched writes (contract §14), which are not a read of the sandbox.
    expect(statements.filter((sql) => !/\bsandbox_change\b/.test(sql) && !/^\s*(INSERT INTO|COPY) journal_entry\b/.test(sql))).toEqual([]);
  });

  it('a clock row changed by any path (here plain SQL, as another instance would) is seen within a second', async () => {
    const sandboxId = await createSandbox();
    expect(await activeWindow(sandboxId)).toBeNull();
    // Sunday 05:00 in Stockholm: inside the bank's weekly window (bank §8).
    await t.get(DataSource).query(
      `UPDATE sandbox_clock SET sandbox_anchor = '2026-11-22T05:00:00+01:00', real_anchor = clock_timestamp(), frozen = true WHERE sandbox_id = $1`,
      [sandboxId],
    );
    // Within a second, re-asked for up to 1.5 s of real time as clients do (request time included).
    const deadline = Date.now() + 1500;
    let active = await activeWindow(sandboxId);
    while (active === null && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      active = await activeWindow(sandboxId);
    }
    expect(active).not.toBeNull();
  });

  it('a sandbox deleted by any path answers 404 within a second', async () => {
    const sandboxId = await createSandbox();
    await activeWindow(sandboxId);
    await t.get(DataSource).query(`DELETE FROM sandbox WHERE id = $1`, [sandboxId]);
    const deadline = Date.now() + 1500;
    let status = (await t.http.get(`/sandboxes/${sandboxId}/admin/clock`).set(operator)).status;
    while (status !== 404 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      status = (await t.http.get(`/sandboxes/${sandboxId}/admin/clock`).set(operator)).status;
    }
    expect(status).toBe(404);
  });

  it('the log is pruned: rows older than a few minutes go, recent ones stay', async () => {
    const dataSource = t.get(DataSource);
    await dataSource.query(`INSERT INTO sandbox_change (sandbox, changed_at) VALUES ('old', clock_timestamp() - interval '1 hour'), ('recent', clock_timestamp())`);
    await t.get(SandboxChanges).prune();
    const left: Array<{ sandbox: string }> = await dataSource.query(`SELECT sandbox FROM sandbox_change WHERE sandbox IN ('old', 'recent')`);
    expect(left.map((row) => row.sandbox)).toEqual(['recent']);
  });
});
