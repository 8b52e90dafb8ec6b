import { jest } from '@jest/globals';
import { DataSource } from 'typeorm';
import { JobRegistry, JobRunner, SandboxRegistry } from '@app/common';
import { certificate, PSU_IP } from './support/psd2';
import { newPersonalNumber } from './support/personal-numbers';
import { describeOnServer } from './support/server-only';
import { ADMIN_KEY, BASE_TIME, closeApps, createTestApp, TestApp, twoInstances } from './support/test-app';

const operator = { Authorization: `Bearer ${ADMIN_KEY}` };

interface Created {
  sandbox_id: string;
  admin_key: string;
}

/** A created sandbox (no demo set) whose clock is frozen at `now`. */
async function newSandbox(t: TestApp, now = BASE_TIME): Promise<Created> {
  const res = await t.http.post('/sandboxes').set(operator).send({ name: 'jobs', seed_demo: false, clock: { now, frozen: true } }).expect(201);
  return res.body as Created;
}

/**
 * An open eid order in the sandbox: a PSD2 authentication started for a MANUAL user, which nobody
 * opens, so the expiry job closes it 30 s (sandbox time) after its start (contract §4).
 */
async function openOrder(t: TestApp, sandbox: Created): Promise<string> {
  const user = newPersonalNumber();
  await t.http
    .put(`/sandboxes/${sandbox.sandbox_id}/admin/users/${user}`)
    .set('Authorization', `Bearer ${sandbox.admin_key}`)
    .send({ name: 'Manual Testsson', kyc_completed: true, eid_behaviour: 'MANUAL' })
    .expect(201);
  await t.http
    .post(`/sandboxes/${sandbox.sandbox_id}/psd2/auth/3.0/authenticate`)
    .set({ 'X-PSD2-CLIENT-TEST-CERT': await certificate(), 'PSU-IP-Address': PSU_IP, 'X-Sandbox-User': user })
    .send({ end_user_ip: PSU_IP, start_mode: 'AUTO_START', scopes: 'AIS,PIS' })
    .expect(200);
  return user;
}

function advance(t: TestApp, sandbox: Created, seconds: number) {
  return t.http.post(`/sandboxes/${sandbox.sandbox_id}/admin/clock/advance`).set('Authorization', `Bearer ${sandbox.admin_key}`).send({ seconds }).expect(200);
}

/** The sandbox's eid orders as the database holds them (reading them through the API would apply the time rules itself). */
async function orders(t: TestApp, sandbox: Created): Promise<Array<{ status: string; hint_code: string }>> {
  return t.get(DataSource).query(`SELECT status, hint_code FROM eid_order WHERE sandbox_id = $1`, [sandbox.sandbox_id]);
}

/** How many SQL statements `work` sends, as TypeORM's logger sees every one of them. */
async function statementsOf(t: TestApp, work: () => Promise<unknown>): Promise<number> {
  const spy = jest.spyOn(t.get(DataSource).logger, 'logQuery');
  try {
    await work();
    // Not the request journal's batches (contract §14): its timer writes whatever earlier requests
    // left buffered, whenever its second comes round, pass or no pass.
    return spy.mock.calls.filter(([sql]) => !/^\s*(INSERT INTO|COPY) journal_entry\b/.test(sql)).length;
  } finally {
    spy.mockRestore();
  }
}

describe('scheduled jobs across sandboxes (contract §13 Time and jobs)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('contract §13 Time and jobs: one scheduled pass does the due work of every sandbox by that sandbox\'s own clock, not another\'s', async () => {
    const [ahead, behind] = [await newSandbox(t), await newSandbox(t)];
    await openOrder(t, ahead);
    await openOrder(t, behind);
    // Only one sandbox's clock passes the 30-second rule; the default sandbox's moves far ahead.
    await advance(t, ahead, 40);
    await t.clock.advance(3600);

    await t.get(JobRunner).tick();
    expect(await orders(t, ahead)).toEqual([{ status: 'FAILED', hint_code: 'START_FAILED' }]);
    expect((await orders(t, behind))[0].status).not.toBe('FAILED');

    await advance(t, behind, 40);
    await t.get(JobRunner).tick();
    expect(await orders(t, behind)).toEqual([{ status: 'FAILED', hint_code: 'START_FAILED' }]);
    // Nothing is left claimed once the pass is over, and every job's search for due work ran.
    expect(await t.get(DataSource).query(`SELECT * FROM sandbox_job_lease`)).toEqual([]);
    expect(t.logs.filter((line) => typeof line.msg === 'string' && line.msg.startsWith('job failed'))).toEqual([]);
  });

  it('contract §13 Time and jobs, §10: a scheduled pass books recurring occurrences, month ends included, by each sandbox\'s own Stockholm date, and ends one past its end_date', async () => {
    const db = t.get(DataSource);
    /** An ACTIVE monthly transfer from 2026-01-31 with `booked` occurrences booked, in the sandbox (its user, account and TPP made by a PSD2 call). */
    const recurring = async (sandbox: Created, booked: number, endDate: string | null = null): Promise<string> => {
      const user = await openOrder(t, sandbox);
      const account = await t.http
        .post(`/sandboxes/${sandbox.sandbox_id}/admin/users/${user}/accounts`)
        .set('Authorization', `Bearer ${sandbox.admin_key}`)
        .send({ name: 'Konto', currency: 'SEK', balance: 10000 })
        .expect(201);
      const [{ reference_id }] = await db.query(
        `INSERT INTO recurring_transfer (sandbox_id, reference_id, account_number, owner_personal_number, tpp_id, amount, currency, transfer_date, end_date,
                                         frequency, recipient_account_number, status, occurrences_booked, created_at, signed_at)
         SELECT $1, gen_random_uuid(), $2, $3, id, 10, 'SEK', date '2026-01-31', $4::date, 'MONTHLY', '99990000001', 'ACTIVE', $5, now(), now()
           FROM tpp WHERE sandbox_id = $1 LIMIT 1
         RETURNING reference_id`,
        [sandbox.sandbox_id, account.body.account_number, user, endDate, booked],
      );
      return reference_id as string;
    };
    const state = async (referenceId: string) =>
      (await db.query(`SELECT status, occurrences_booked FROM recurring_transfer WHERE reference_id = $1`, [referenceId]))[0] as { status: string; occurrences_booked: number };
    // 2026-03-31 in Stockholm (22:30 UTC on the 30th) and 2026-03-30 there.
    const [onThe31st, onThe30th] = [await newSandbox(t, '2026-03-30T22:30:00Z'), await newSandbox(t, '2026-03-30T12:00:00Z')];
    // Two booked (01-31, 02-28): the next, 03-31, is due by the Stockholm date only.
    const due = await recurring(onThe31st, 2);
    const notYet = await recurring(onThe30th, 2);
    const ended = await recurring(onThe30th, 1, '2026-02-15');

    await t.get(JobRunner).tick();

    // 03-31 booked: the third occurrence, by the sandbox's own Stockholm date (its UTC date is 03-30).
    expect(await state(due)).toEqual({ status: 'ACTIVE', occurrences_booked: 3 });
    expect(await state(notYet)).toEqual({ status: 'ACTIVE', occurrences_booked: 2 });
    expect(await state(ended)).toEqual({ status: 'ENDED', occurrences_booked: 1 });
  });

  it('contract §13 Time and jobs, §7: a scheduled pass records a downtime window\'s start in the sandbox whose clock passed it, not in one whose clock did not', async () => {
    // One minute before a window of bank §8 (2026-11-22 04:00 Stockholm), in both sandboxes.
    const [passes, stays] = [await newSandbox(t, '2026-11-22T03:59:00+01:00'), await newSandbox(t, '2026-11-22T03:59:00+01:00')];
    const events = async (sandbox: Created) =>
      (await t.get(DataSource).query(`SELECT event FROM maintenance_window_event WHERE sandbox_id = $1`, [sandbox.sandbox_id])).map((row: { event: string }) => row.event);
    await t.get(JobRunner).tick(); // the first observation of each
    await advance(t, passes, 120);
    await t.get(JobRunner).tick();
    expect(await events(passes)).toEqual(['started']);
    expect(await events(stays)).toEqual([]);
  });

  it('contract §13 Time and jobs: a scheduled pass is the same number of statements with 2 or 50 sandboxes without due work', async () => {
    const runner = t.get(JobRunner);
    const pass = () => runner.tick();
    const count = async (sandboxes: number) => {
      const existing = Number((await t.get(DataSource).query(`SELECT count(*) AS n FROM sandbox WHERE id <> 'default'`))[0].n);
      for (let i = existing; i < sandboxes; i++) await newSandbox(t);
      await pass(); // first sight of a new sandbox: the downtime bookkeeping's first observation is due work
      return statementsOf(t, pass);
    };
    // This test's own sandboxes only: the earlier tests' go first.
    await t.get(DataSource).query(`DELETE FROM sandbox WHERE id <> 'default'`);
    const withTwo = await count(2);
    const withFifty = await count(50);
    expect(withTwo).toBeGreaterThan(0);
    expect(withFifty).toBe(withTwo);
    // Bounded by the jobs, not the sandboxes: a few statements per job.
    expect(withTwo).toBeLessThanOrEqual(4 * (t.get(JobRegistry).all().length + 1));
  });

  it('contract §13 Time and jobs: POST /sandboxes/{id}/admin/jobs/run runs that sandbox\'s jobs at once while another instance holds every scheduled (all-sandbox) lease', async () => {
    const sandbox = await newSandbox(t);
    await openOrder(t, sandbox);
    await advance(t, sandbox, 40);
    const jobs = [...t.get(JobRegistry).all().map((job) => job.name), 'sandbox-idle-expiry'];
    // Another instance's scheduled pass, mid-run: it holds every job's global lease for a minute.
    await t.get(DataSource).query(
      `INSERT INTO job_lease (name, holder, leased_until) SELECT unnest($1::text[]), 'another-instance', clock_timestamp() + interval '60 seconds'
       ON CONFLICT (name) DO UPDATE SET holder = EXCLUDED.holder, leased_until = EXCLUDED.leased_until`,
      [jobs],
    );
    try {
      const started = performance.now();
      await t.http.post(`/sandboxes/${sandbox.sandbox_id}/admin/jobs/run`).set('Authorization', `Bearer ${sandbox.admin_key}`).expect(200);
      expect(performance.now() - started).toBeLessThan(10_000);
      expect(await orders(t, sandbox)).toEqual([{ status: 'FAILED', hint_code: 'START_FAILED' }]);
    } finally {
      await t.get(DataSource).query(`UPDATE job_lease SET holder = NULL, leased_until = NULL WHERE holder = 'another-instance'`);
    }
  });

  it('contract §13 Lifecycle: a sandbox unused for SANDBOX_IDLE_DAYS real days is deleted by the scheduled jobs; a used one and the default sandbox stay', async () => {
    const [idle, used] = [await newSandbox(t), await newSandbox(t)];
    const db = t.get(DataSource);
    // last_used_at is real time: 31 and 29 days ago (SANDBOX_IDLE_DAYS = 30), the default sandbox years ago.
    await db.query(`UPDATE sandbox SET last_used_at = now() - interval '31 days' WHERE id = $1`, [idle.sandbox_id]);
    await db.query(`UPDATE sandbox SET last_used_at = now() - interval '29 days' WHERE id = $1`, [used.sandbox_id]);
    await db.query(`UPDATE sandbox SET last_used_at = now() - interval '3 years' WHERE id = 'default'`);

    await t.get(JobRunner).tick();

    await t.http.get(`/sandboxes/${idle.sandbox_id}`).set(operator).expect(404);
    await t.http.get(`/sandboxes/${idle.sandbox_id}/admin/clock`).set(operator).expect(404);
    expect(await db.query(`SELECT count(*)::int AS n FROM sandbox_clock WHERE sandbox_id = $1`, [idle.sandbox_id])).toEqual([{ n: 0 }]);
    await t.http.get(`/sandboxes/${used.sandbox_id}`).set(operator).expect(200);
    await t.http.get('/sandboxes/default').set(operator).expect(200);
  });

  it('contract §13 Lifecycle, §6: unused for exactly SANDBOX_IDLE_DAYS is enough to go; a millisecond short of it a sandbox stays', async () => {
    const [almost, idle] = [await newSandbox(t), await newSandbox(t)];
    const db = t.get(DataSource);
    // Real time cannot be moved: the instant idleness is measured at is given (SandboxRegistry.deleteIdle's asOf).
    await db.query(`UPDATE sandbox SET last_used_at = '2001-01-01T00:00:00.001Z' WHERE id = $1`, [almost.sandbox_id]);
    await db.query(`UPDATE sandbox SET last_used_at = '2001-01-01T00:00:00Z' WHERE id = $1`, [idle.sandbox_id]);
    expect(await t.get(SandboxRegistry).deleteIdle(30, 100, new Date('2001-01-31T00:00:00Z'))).toEqual([idle.sandbox_id]);
    await t.http.get(`/sandboxes/${idle.sandbox_id}`).set(operator).expect(404);
    await t.http.get(`/sandboxes/${almost.sandbox_id}`).set(operator).expect(200);
  });
});

describeOnServer('scheduled jobs across sandboxes, two instances on one database (contract §13 Time and jobs)', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => ([a, b] = await twoInstances()));
  afterAll(() => closeApps(a, b));

  it('contract §13 Time and jobs: passes on two instances at once, with per-sandbox runs among them, do each sandbox\'s due item exactly once', async () => {
    const sandboxes: Created[] = [];
    for (let i = 0; i < 12; i++) sandboxes.push(await newSandbox(a));
    for (const sandbox of sandboxes) {
      await openOrder(a, sandbox);
      await advance(a, sandbox, 40);
    }
    const versions = async () =>
      (await a.get(DataSource).query(`SELECT version FROM eid_order WHERE sandbox_id = ANY($1::text[]) ORDER BY sandbox_id`, [sandboxes.map((s) => s.sandbox_id)])).map(
        (row: { version: number }) => Number(row.version),
      );
    const before = await versions();
    const closedLines = () => a.logs.filter((line) => typeof line.msg === 'string' && line.msg.startsWith('eid orders closed: 1 START_FAILED')).length;
    const linesBefore = closedLines();

    await Promise.all([
      a.get(JobRunner).tick(),
      b.get(JobRunner).tick(),
      ...sandboxes.slice(0, 3).map((s) => b.http.post(`/sandboxes/${s.sandbox_id}/admin/jobs/run`).set('Authorization', `Bearer ${s.admin_key}`).expect(200)),
    ]);
    await a.get(JobRunner).tick();

    for (const sandbox of sandboxes) expect(await orders(a, sandbox)).toEqual([{ status: 'FAILED', hint_code: 'START_FAILED' }]);
    // Each order was written by the job exactly once (its version moved by one) and closed by exactly one run.
    expect(await versions()).toEqual(before.map((v: number) => v + 1));
    expect(closedLines() - linesBefore).toBe(sandboxes.length);
  });
});
