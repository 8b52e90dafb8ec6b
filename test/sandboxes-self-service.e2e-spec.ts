import { DataSource } from 'typeorm';
import { expectProblem } from './support/problems';
import { describeOnServer } from './support/server-only';
import { ADMIN_KEY, closeApps, createTestApp, TestApp, twoInstances } from './support/test-app';

interface Created {
  sandbox_id: string;
  admin_key: string;
}

const operator = { Authorization: `Bearer ${ADMIN_KEY}` };
const key = (value: string) => ({ Authorization: `Bearer ${value}` });
const SELF_SERVICE = { SANDBOX_SELF_SERVICE: 'on', DOWNTIME_CALENDAR: 'off' };

/** What a creation writes: sandboxes besides the default one, and the creation log. */
async function written(t: TestApp): Promise<{ sandboxes: number; log: number }> {
  const [row] = await t.app
    .get(DataSource)
    .query(`SELECT (SELECT count(*)::int FROM sandbox WHERE id <> 'default') AS sandboxes, (SELECT count(*)::int FROM sandbox_creation) AS log`);
  return row;
}

/** Ages every creation log row of `ip` by `minutes` real minutes (the window is real time: no clock moves it). */
async function age(t: TestApp, ip: string, minutes: number): Promise<void> {
  await t.app.get(DataSource).query(`UPDATE sandbox_creation SET created_at = created_at - make_interval(mins => $2) WHERE caller_ip = $1`, [ip, minutes]);
}

describe('contract §13 Self-service (SANDBOX_SELF_SERVICE=on)', () => {
  let t: TestApp;
  const selfCreate = (name = 'ci run') => t.http.post('/sandboxes').send({ name, seed_demo: false });

  beforeAll(async () => {
    t = await createTestApp({ env: SELF_SERVICE, keepClock: true });
  });
  afterAll(() => t.close());
  beforeEach(() => t.app.get(DataSource).query(`DELETE FROM sandbox_creation`));

  it('contract §13 Self-service: POST /sandboxes needs no key, and the caller IP is logged (the TCP peer)', async () => {
    const res = await selfCreate().set('X-Forwarded-For', '203.0.113.9').expect(201);
    expect(res.body).toMatchObject({ sandbox_id: expect.any(String), admin_key: expect.any(String) });
    // Without TRUST_PROXY a forwarded address is not believed.
    expect(await t.app.get(DataSource).query(`SELECT caller_ip FROM sandbox_creation`)).toEqual([{ caller_ip: '127.0.0.1' }]);
  });

  it('contract §13 Self-service: GET /sandboxes still needs the operator key', async () => {
    expectProblem(await t.http.get('/sandboxes'), 401, 'UNAUTHORIZED');
    const own: Created = (await selfCreate().expect(201)).body;
    expectProblem(await t.http.get('/sandboxes').set(key(own.admin_key)), 401, 'UNAUTHORIZED');
    await t.http.get('/sandboxes').set(operator).expect(200);
  });

  it('contract §13 Self-service: a key that is given must be the operator key (a sandbox\'s admin key or a wrong key is 401, nothing written)', async () => {
    const own: Created = (await selfCreate().expect(201)).body;
    const before = await written(t);
    expectProblem(await selfCreate().set(key(own.admin_key)), 401, 'UNAUTHORIZED');
    expectProblem(await selfCreate().set(key('not-the-operator-key-at-all')), 401, 'UNAUTHORIZED');
    expect(await written(t)).toEqual(before);
  });

  it('contract §13 Self-service: the 11th creation within the hour from one IP is 429 RATE_LIMITED with Retry-After, and writes nothing', async () => {
    for (let i = 1; i <= 10; i++) await selfCreate(`run ${i}`).expect(201);
    const before = await written(t);
    const refused = await selfCreate('run 11');
    expectProblem(refused, 429, 'RATE_LIMITED');
    // Until the oldest of the ten, created seconds ago, leaves the 60-minute window.
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(3500);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(await written(t)).toEqual(before);
  });

  it('contract §13 Self-service: the window slides over 60 real minutes (Retry-After is the oldest creation\'s time left in it)', async () => {
    for (let i = 1; i <= 10; i++) await selfCreate(`run ${i}`).expect(201);
    // Moved back by SQL: real time cannot be moved by the sandbox clock.
    await age(t, '127.0.0.1', 59);
    const refused = await selfCreate();
    expectProblem(refused, 429, 'RATE_LIMITED');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    await age(t, '127.0.0.1', 1);
    await selfCreate('room again').expect(201);
  });

  it('contract §13 Self-service: counted per caller IP', async () => {
    await t.app.get(DataSource).query(`INSERT INTO sandbox_creation (caller_ip) SELECT '198.51.100.7' FROM generate_series(1, 10)`);
    await selfCreate().expect(201);
  });

  it('contract §13 Self-service: with the operator key a creation is not rate limited, nor counted', async () => {
    await t.app.get(DataSource).query(`INSERT INTO sandbox_creation (caller_ip) SELECT '127.0.0.1' FROM generate_series(1, 10)`);
    expectProblem(await selfCreate(), 429, 'RATE_LIMITED');
    await t.http.post('/sandboxes').set(operator).send({ name: 'operator', seed_demo: false }).expect(201);
    expect((await written(t)).log).toBe(10);
  });

  it('contract §13 Self-service: creation log rows that left the window are pruned, a bounded batch per creation', async () => {
    await t.app.get(DataSource).query(`INSERT INTO sandbox_creation (caller_ip, created_at) SELECT '192.0.2.1', now() - interval '2 hours' FROM generate_series(1, 250)`);
    await selfCreate().expect(201);
    expect((await written(t)).log).toBe(250 - 100 + 1);
    await selfCreate().expect(201);
    await selfCreate().expect(201);
    expect((await written(t)).log).toBe(3);
  });
});

describe('contract §13 Self-service behind a proxy (TRUST_PROXY=on)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { ...SELF_SERVICE, TRUST_PROXY: 'on', SANDBOX_CREATE_PER_HOUR: '1' }, keepClock: true });
  });
  afterAll(() => t.close());

  it('contract §13 Self-service: the caller IP is X-Forwarded-For\'s client, each counted on its own', async () => {
    const create = (ip: string) => t.http.post('/sandboxes').set('X-Forwarded-For', ip).send({ name: 'behind a proxy', seed_demo: false });
    await create('203.0.113.1').expect(201);
    expectProblem(await create('203.0.113.1'), 429, 'RATE_LIMITED');
    await create('203.0.113.2').expect(201);
    const ips: Array<{ caller_ip: string }> = await t.app.get(DataSource).query(`SELECT caller_ip FROM sandbox_creation ORDER BY caller_ip`);
    expect(ips.map((row) => row.caller_ip)).toEqual(['203.0.113.1', '203.0.113.2']);
  });
});

describe('contract §13 Keys in self-service mode without ADMIN_API_KEY', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { ...SELF_SERVICE, ADMIN_API_KEY: '' }, keepClock: true });
  });
  afterAll(() => t.close());

  it('contract §13 Keys: a self-service sandbox\'s own admin key opens GET, reset and DELETE of its own sandbox, and its /admin/*', async () => {
    const own: Created = (await t.http.post('/sandboxes').send({ name: 'self-administered' }).expect(201)).body;
    await t.http.get(`/sandboxes/${own.sandbox_id}`).set(key(own.admin_key)).expect(200);
    await t.http.get(`/sandboxes/${own.sandbox_id}/admin/clock`).set(key(own.admin_key)).expect(200);
    await t.http.post(`/sandboxes/${own.sandbox_id}/reset`).set(key(own.admin_key)).expect(200);
    const other: Created = (await t.http.post('/sandboxes').send({ name: 'another' }).expect(201)).body;
    expectProblem(await t.http.delete(`/sandboxes/${other.sandbox_id}`).set(key(own.admin_key)), 401, 'UNAUTHORIZED');
    await t.http.delete(`/sandboxes/${own.sandbox_id}`).set(key(own.admin_key)).expect(204);
    expectProblem(await t.http.get(`/sandboxes/${own.sandbox_id}/admin/clock`).set(key(own.admin_key)), 404, 'NOT_FOUND');
  });

  it('contract §13 Keys: GET /sandboxes and the default sandbox\'s /admin/* stay closed (403)', async () => {
    expectProblem(await t.http.get('/sandboxes'), 403, 'FORBIDDEN');
    expectProblem(await t.http.get('/admin/clock'), 403, 'FORBIDDEN');
  });
});

describe('contract §13 Self-service off (the default)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ keepClock: true });
  });
  afterAll(() => t.close());

  it('contract §13 Self-service: without SANDBOX_SELF_SERVICE, POST /sandboxes without a key is 401, nothing written', async () => {
    expectProblem(await t.http.post('/sandboxes').send({ name: 'no key' }), 401, 'UNAUTHORIZED');
    expect(await written(t)).toEqual({ sandboxes: 0, log: 0 });
  });
});

describeOnServer('contract §13 Self-service on two instances', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    [a, b] = await twoInstances({ env: { ...SELF_SERVICE, SANDBOX_CREATE_PER_HOUR: '5' }, keepClock: true });
  });
  afterAll(() => closeApps(a, b));

  it('contract §13 Self-service: concurrent creations from one IP on two instances are counted once each (exactly the limit succeeds)', async () => {
    const attempts = Array.from({ length: 8 }, (_, i) => (i % 2 === 0 ? a : b).http.post('/sandboxes').send({ name: `race ${i}`, seed_demo: false }));
    const statuses = (await Promise.all(attempts)).map((res) => res.status).sort();
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429, 429, 429]);
    expect(await written(a)).toEqual({ sandboxes: 5, log: 5 });
  });
});
