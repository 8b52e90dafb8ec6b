import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { JobRunner, SandboxRegistry } from '@app/common';
import { newPersonalNumber } from './support/personal-numbers';
import { expectProblem, expectValidationFailed } from './support/problems';
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

/** Sandboxes that exist besides the default one, reservations included (what SANDBOX_MAX counts). */
async function rows(t: TestApp): Promise<Array<{ id: string; ready: boolean; self_service: boolean }>> {
  return t.app.get(DataSource).query(`SELECT id, ready, self_service FROM sandbox WHERE id <> 'default' ORDER BY created_at`);
}

/** `n` users with distinct personal numbers, each with `accounts` accounts. */
function fixtureOf(n: number, accounts = 0): { users: object[] } {
  const numbers = new Set<string>();
  while (numbers.size < n) numbers.add(newPersonalNumber());
  return {
    users: [...numbers].map((personal_number, i) => ({
      personal_number,
      name: `Fixture ${i}`,
      kyc_completed: true,
      accounts: Array.from({ length: accounts }, (_, j) => ({ name: `Konto ${j}`, currency: 'SEK', balance: 100 })),
    })),
  };
}

describe('contract §13 Self-service: the caller is the IPv4 address or the IPv6 /64 (TRUST_PROXY=on, X-Forwarded-For)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { ...SELF_SERVICE, TRUST_PROXY: 'on', SANDBOX_CREATE_PER_HOUR: '1' }, keepClock: true });
  });
  afterAll(() => t.close());
  beforeEach(() => t.app.get(DataSource).query(`DELETE FROM sandbox_creation`));
  const create = (ip: string) => t.http.post('/sandboxes').set('X-Forwarded-For', ip).send({ name: 'counted', seed_demo: false });
  const logged = async () => (await t.app.get(DataSource).query<Array<{ caller_ip: string }>>(`SELECT caller_ip FROM sandbox_creation`)).map((row) => row.caller_ip);

  it('contract §13 Self-service: every address of one IPv6 /64 is one caller; another /64 is another', async () => {
    await create('2001:db8:1:2::1').expect(201);
    expectProblem(await create('2001:db8:1:2::ffff'), 429, 'RATE_LIMITED');
    expectProblem(await create('2001:0db8:0001:0002:abcd:ef01:2345:6789'), 429, 'RATE_LIMITED');
    await create('2001:db8:1:3::1').expect(201);
    expect((await logged()).sort()).toEqual(['2001:db8:1:2::/64', '2001:db8:1:3::/64']);
  });

  it('contract §13 Self-service: an IPv4-mapped IPv6 address is its IPv4 address', async () => {
    await create('203.0.113.50').expect(201);
    expectProblem(await create('::ffff:203.0.113.50'), 429, 'RATE_LIMITED');
    expectProblem(await create('::ffff:cb00:7132'), 429, 'RATE_LIMITED');
    await create('203.0.113.51').expect(201);
    expect((await logged()).sort()).toEqual(['203.0.113.50', '203.0.113.51']);
  });

  it('contract §13 Self-service: ::1, 127.0.0.1 and 127.0.0.2 are one host, one caller', async () => {
    await create('127.0.0.2').expect(201);
    for (const ip of ['127.0.0.1', '::1', '::ffff:127.0.0.9']) expectProblem(await create(ip), 429, 'RATE_LIMITED');
    expect(await logged()).toEqual(['127.0.0.1']);
  });
});

describe('contract §13 Self-service: SANDBOX_SELF_SERVICE_MAX keeps the operator\'s reserve', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { ...SELF_SERVICE, SANDBOX_MAX: '3', SANDBOX_SELF_SERVICE_MAX: '2', SANDBOX_CREATE_PER_HOUR: '100' }, keepClock: true });
  });
  afterAll(() => t.close());

  it('contract §13 Self-service: self-service fills at most SANDBOX_SELF_SERVICE_MAX (409 SANDBOX_LIMIT_REACHED, nothing written); the operator still creates, up to SANDBOX_MAX', async () => {
    const own: Created = (await t.http.post('/sandboxes').send({ name: 'self 1', seed_demo: false }).expect(201)).body;
    await t.http.post('/sandboxes').send({ name: 'self 2', seed_demo: false }).expect(201);
    const before = await written(t);
    const refused = await t.http.post('/sandboxes').send({ name: 'self 3', seed_demo: false });
    expect(expectProblem(refused, 409, 'SANDBOX_LIMIT_REACHED').reason.message).toContain('SANDBOX_SELF_SERVICE_MAX');
    expect(await written(t)).toEqual(before);
    // The operator's reserve.
    await t.http.post('/sandboxes').set(operator).send({ name: 'operator', seed_demo: false }).expect(201);
    expect((await rows(t)).map((row) => row.self_service)).toEqual([true, true, false]);
    expect(expectProblem(await t.http.post('/sandboxes').set(operator).send({ name: 'over', seed_demo: false }), 409, 'SANDBOX_LIMIT_REACHED').reason.message).toContain('SANDBOX_MAX');
    // Deleting a self-service sandbox gives its place back to self-service.
    await t.http.delete(`/sandboxes/${own.sandbox_id}`).set(key(own.admin_key)).expect(204);
    await t.http.post('/sandboxes').send({ name: 'self again', seed_demo: false }).expect(201);
  });
});

describe('contract §13 Self-service: SANDBOX_SELF_SERVICE_MAX is 90 % of SANDBOX_MAX by default', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { ...SELF_SERVICE, SANDBOX_MAX: '10', SANDBOX_CREATE_PER_HOUR: '100' }, keepClock: true });
  });
  afterAll(() => t.close());

  it('contract §13 Self-service: with SANDBOX_MAX=10, nine self-service creations, the tenth refused, and the operator creates the tenth sandbox', async () => {
    for (let i = 1; i <= 9; i++) await t.http.post('/sandboxes').send({ name: `self ${i}`, seed_demo: false }).expect(201);
    expectProblem(await t.http.post('/sandboxes').send({ name: 'self 10', seed_demo: false }), 409, 'SANDBOX_LIMIT_REACHED');
    await t.http.post('/sandboxes').set(operator).send({ name: 'operator', seed_demo: false }).expect(201);
    expect(await rows(t)).toHaveLength(10);
  });
});

describe('contract §13 Self-service: a self-service fixture holds at most 100 users and 1 000 accounts', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { ...SELF_SERVICE, SANDBOX_CREATE_PER_HOUR: '100' }, keepClock: true });
  });
  afterAll(() => t.close());

  it('contract §13 Self-service: 101 users, or more than 1 000 accounts, is 400 VALIDATION_FAILED naming fixture, nothing written', async () => {
    const before = await written(t);
    for (const [name, fixture] of [
      ['too many users', fixtureOf(101)],
      ['too many accounts', fixtureOf(2, 501)],
    ] as const) {
      const refused = await t.http.post('/sandboxes').send({ name, seed_demo: false, fixture });
      expectValidationFailed(refused, 'fixture');
      expect(refused.body.reason.message).toContain('at most 100 users and 1000 accounts');
    }
    expect(await written(t)).toEqual(before);
  });

  it('contract §13 Self-service: 100 users with 1 000 accounts is created; the operator key takes more', async () => {
    const own: Created = (await t.http.post('/sandboxes').send({ name: 'at the limit', seed_demo: false, fixture: fixtureOf(100, 10) }).expect(201)).body;
    const [{ users, accounts }] = await t.app
      .get(DataSource)
      .query(`SELECT (SELECT count(*)::int FROM sandbox_user WHERE sandbox_id = $1) AS users, (SELECT count(*)::int FROM account WHERE sandbox_id = $1) AS accounts`, [own.sandbox_id]);
    expect({ users, accounts }).toEqual({ users: 100, accounts: 1000 });
    await t.http.post('/sandboxes').set(operator).send({ name: 'operator', seed_demo: false, fixture: fixtureOf(101) }).expect(201);
  });
});

describe('contract §13: a creation is counted and reserved first, then seeded; never seen half seeded', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { ...SELF_SERVICE, SANDBOX_CREATE_PER_HOUR: '1' }, keepClock: true });
  });
  afterAll(() => t.close());
  beforeEach(() => t.app.get(DataSource).query(`DELETE FROM sandbox_creation`));

  it('contract §13 Self-service with §2: a creation whose seeding fails (two users with one account number) leaves nothing: no sandbox, no reservation, and its count given back', async () => {
    const fixture = fixtureOf(2);
    const taken = '90001234567';
    for (const user of fixture.users as Array<{ accounts: object[] }>) user.accounts = [{ name: 'Konto', currency: 'SEK', balance: 1, account_number: taken }];
    const before = await written(t);
    expectProblem(await t.http.post('/sandboxes').send({ name: 'fails while seeding', seed_demo: false, fixture }), 409);
    expect(await written(t)).toEqual(before);
    expect(await rows(t)).toEqual([]);
    // SANDBOX_CREATE_PER_HOUR=1: the failed creation did not use it up.
    await t.http.post('/sandboxes').send({ name: 'the real one', seed_demo: false }).expect(201);
  });

  it('contract §13: a reservation whose creation died is no sandbox (404 everywhere, not listed) but is counted, and the idle-sandbox job clears it after 10 minutes', async () => {
    const id = randomUUID();
    await t.get(SandboxRegistry).insert(
      { id, name: 'died while seeding', adminKeyHash: null, selfService: true, seedDemo: false, demoPartnerKeyHash: null, downtimeCalendar: null, clockNow: null, clockFrozen: false, fixture: null },
      true,
    );
    expectProblem(await t.http.get(`/sandboxes/${id}/sandbox/test-certificate`), 404, 'NOT_FOUND');
    expectProblem(await t.http.get(`/sandboxes/${id}`).set(operator), 404, 'NOT_FOUND');
    expectProblem(await t.http.post(`/sandboxes/${id}/reset`).set(operator), 404, 'NOT_FOUND');
    expectProblem(await t.http.delete(`/sandboxes/${id}`).set(operator), 404, 'NOT_FOUND');
    const listed = (await t.http.get('/sandboxes').set(operator).expect(200)).body.sandboxes.map((s: { sandbox_id: string }) => s.sandbox_id);
    expect(listed).not.toContain(id);
    expect((await rows(t)).map((row) => row.id)).toContain(id);
    // Younger than a creation may take: kept. Older: cleared by the scheduled pass.
    await t.get(JobRunner).tick();
    expect((await rows(t)).map((row) => row.id)).toContain(id);
    await t.app.get(DataSource).query(`UPDATE sandbox SET created_at = created_at - interval '11 minutes' WHERE id = $1`, [id]);
    await t.get(JobRunner).tick();
    expect((await rows(t)).map((row) => row.id)).not.toContain(id);
  });
});

describeOnServer('contract §13: creating one sandbox never makes the creation of another wait for its seeding (PostgreSQL server)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: SELF_SERVICE, keepClock: true });
  });
  afterAll(() => t.close());

  /** Whether a statement starting with `text` waits for a lock in this database now. */
  const waiting = async (text: string): Promise<boolean> => {
    const [{ n }] = await t.app
      .get(DataSource)
      .query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE $1`, [`${text}%`]);
    return n > 0;
  };
  /** Polls until `condition` holds; fails if `settled` comes first. */
  const until = async (condition: () => Promise<boolean>, settled: Promise<unknown>, what: string) => {
    let done = false;
    void settled.then(() => (done = true), () => (done = true));
    for (;;) {
      if (await condition()) return;
      if (done) throw new Error(`finished before ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };

  it('contract §13: a small creation completes while a large one is held in its seeding, and never waits for the creation lock', async () => {
    // The large creation's seeding writes users; this transaction keeps every such write waiting.
    const blocker = t.app.get(DataSource).createQueryRunner();
    try {
      await blocker.startTransaction();
      await blocker.query('LOCK TABLE sandbox_user IN SHARE MODE');
      const large = t.http.post('/sandboxes').set(operator).send({ name: 'large', seed_demo: false, fixture: fixtureOf(50, 2) }).then((res) => res);
      // Its reservation is committed and its seeding waits on the users' table: the creation lock is free again.
      await until(() => waiting('INSERT INTO sandbox_user'), large, 'the large creation reached its seeding');
      expect((await rows(t)).filter((row) => !row.ready)).toHaveLength(1);

      // Self-service and operator creations alike: each completes, none waits for the creation lock.
      const smallCreations = Promise.all([
        t.http.post('/sandboxes').send({ name: 'small, self-service', seed_demo: false }),
        t.http.post('/sandboxes').set(operator).send({ name: 'small, operator', seed_demo: false }),
      ]);
      const waitedForLock = until(() => waiting("SELECT pg_advisory_xact_lock(hashtext('sandbox_create'))"), smallCreations, 'a small creation waited').then(
        () => 'waited for the creation lock' as const,
        () => new Promise<never>(() => undefined),
      );
      const first = await Promise.race([smallCreations.then(() => 'created' as const), waitedForLock]);
      expect(first).toBe('created');
      expect((await smallCreations).map((res) => res.status)).toEqual([201, 201]);
      // The large one is still in its seeding: not a sandbox yet, to anyone.
      const pending = (await rows(t)).filter((row) => !row.ready);
      expect(pending).toHaveLength(1);
      expectProblem(await t.http.get(`/sandboxes/${pending[0].id}`).set(operator), 404, 'NOT_FOUND');

      await blocker.commitTransaction();
      const created: Created = (await large).body;
      expect((await large).status).toBe(201);
      expect(created.sandbox_id).toBe(pending[0].id);
      expect((await rows(t)).every((row) => row.ready)).toBe(true);
      await t.http.get(`/sandboxes/${created.sandbox_id}/admin/clock`).set(key(created.admin_key)).expect(200);
    } finally {
      if (blocker.isTransactionActive) await blocker.rollbackTransaction();
      await blocker.release();
    }
  });
});
