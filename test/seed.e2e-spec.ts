import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PartnerService, TppRegistry } from '@app/directory';
import { DemoSeeder } from '@app/sandbox';
import { newPartner, sampleFixture } from './support/fixtures';
import { newPersonalNumber, withWrongCheckDigit } from './support/personal-numbers';
import { expectProblem, expectValidationFailed } from './support/problems';
import { describeOnServer } from './support/server-only';
import { createTestApp, TestApp } from './support/test-app';
import { freshDatabase } from './support/test-db';
import { DataSource } from 'typeorm';

describe('POST /admin/seed (contract §8)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('loads users with accounts, partners and TPP settings, and answers what it made (contract §8)', async () => {
    const { fixture, alice, bob } = sampleFixture();
    const res = await t.admin.post('/admin/seed', fixture).expect(200);
    expect(res.body.users).toEqual([
      { personal_number: alice, created: true, accounts: [expect.objectContaining({ name: 'Lönekonto', balance: 12500.75, currency: 'SEK' }), expect.objectContaining({ name: 'Resekonto', currency: 'EUR' })] },
      { personal_number: bob, created: true, accounts: [] },
    ]);
    expect(res.body.partners).toEqual([
      { partner_id: expect.any(String), name: 'Fixture Partner AB', api_key: fixture.partners[0].api_key },
      { partner_id: expect.any(String), name: 'Random Key AB', api_key: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) },
    ]);
    expect(res.body.tpps).toEqual([{ organization_id: fixture.tpps[0].organization_id, non_authenticated_token_lifetime_s: 600 }]);

    const aliceNow = await t.admin.get(`/admin/users/${alice}`).expect(200);
    expect(aliceNow.body).toMatchObject({ name: 'Alice Andersson', eid_behaviour: 'MANUAL', kyc_completed: true });
    expect(aliceNow.body.accounts).toHaveLength(2);
    const bobNow = await t.admin.get(`/admin/users/${bob}`).expect(200);
    expect(bobNow.body).toMatchObject({ kyc_completed: false, credit_decision: 'REJECTED' });
    expect(await t.get(PartnerService).authenticate(fixture.partners[0].api_key!)).not.toBeNull();
    const tpp = await t.get(TppRegistry).identify({ organizationId: fixture.tpps[0].organization_id, fingerprint: '00' });
    expect(tpp.nonAuthenticatedTokenLifetimeS).toBe(600);
  });

  it('loading the same fixture again gives the same state for users, numbered accounts and keyed partners', async () => {
    const { fixture, alice } = sampleFixture();
    fixture.users[0].accounts = fixture.users[0].accounts.filter((a) => a.account_number);
    fixture.partners = [fixture.partners[0]];
    const first = await t.admin.post('/admin/seed', fixture).expect(200);
    fixture.users[0].accounts[0].balance = 99;
    const second = await t.admin.post('/admin/seed', fixture).expect(200);
    expect(second.body.users[0].created).toBe(false);
    expect(second.body.partners[0].partner_id).toBe(first.body.partners[0].partner_id);
    const user = await t.admin.get(`/admin/users/${alice}`).expect(200);
    expect(user.body.accounts).toEqual([expect.objectContaining({ account_number: fixture.users[0].accounts[0].account_number, balance: 99 })]);
  });

  it('accepts an empty fixture', async () => {
    const res = await t.admin.post('/admin/seed', {}).expect(200);
    expect(res.body).toEqual({ users: [], partners: [], tpps: [] });
  });

  it('refuses a bad personal number with 400 naming users.N.personal_number, and writes nothing (contract §2)', async () => {
    const { fixture, alice } = sampleFixture();
    fixture.users[1].personal_number = withWrongCheckDigit(newPersonalNumber());
    expectValidationFailed(await t.admin.post('/admin/seed', fixture), 'users.1.personal_number');
    await t.admin.get(`/admin/users/${alice}`).expect(404);
  });

  it('refuses a bad nested field with 400 naming its path, and writes nothing (contract §2)', async () => {
    const { fixture, alice } = sampleFixture();
    fixture.users[0].accounts[1].currency = 'KRONOR';
    expectValidationFailed(await t.admin.post('/admin/seed', fixture), 'users.0.accounts.1.currency');
    fixture.users[0].accounts[1].currency = 'SEK';
    fixture.users[0].shoe_size = 42;
    expectValidationFailed(await t.admin.post('/admin/seed', fixture), 'shoe_size');
    await t.admin.get(`/admin/users/${alice}`).expect(404);
  });

  it('refuses an array item that is no JSON object (an array, a number, null) with 400 naming its path, never a 500 (contract §2)', async () => {
    const user = { personal_number: newPersonalNumber(), name: 'T', kyc_completed: true };
    const cases: Array<[object, string]> = [
      [{ tpps: [[]] }, 'tpps.0'],
      [{ partners: [[]] }, 'partners.0'],
      [{ users: [[]] }, 'users.0'],
      [{ users: [[{ ...user }]] }, 'users.0'],
      [{ users: [{ ...user, accounts: [[]] }] }, 'users.0.accounts.0'],
      [{ users: [{ ...user, accounts: [{ name: 'Lön', currency: 'SEK', balance: 1 }, []] }] }, 'users.0.accounts.1'],
      [{ users: [1] }, 'users.0'],
      [{ partners: [null] }, 'partners.0'],
    ];
    for (const [fixture, path] of cases) {
      const res = await t.admin.post('/admin/seed', fixture);
      expectValidationFailed(res, path);
      expect(res.body.reason.message).not.toContain('must be either object or array');
    }
    await t.admin.get(`/admin/users/${user.personal_number}`).expect(404);
  });

  it('rolls back everything when a late item conflicts: all or nothing (contract §2: nothing is written)', async () => {
    const { fixture, alice } = sampleFixture();
    const taken = `taken-partner-key-${alice}`;
    await newPartner(t, { api_key: taken });
    const other = sampleFixture();
    const numbered = other.fixture.users[0].accounts[0];
    await t.admin.post('/admin/seed', { users: [other.fixture.users[0]] }).expect(200);
    // Alice's account number now belongs to another user: the seed conflicts after Alice was written.
    fixture.users[0].accounts[0].account_number = numbered.account_number;
    expectProblem(await t.admin.post('/admin/seed', fixture), 409, 'CONFLICT');
    await t.admin.get(`/admin/users/${alice}`).expect(404);
  });
});

describe('the demo set (contract §8)', () => {
  let dataDir: string;
  let t: TestApp;
  const stdout: string[] = [];
  let restoreWrite: () => void;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'sandbox-demo-'));
    const write = process.stdout.write.bind(process.stdout);
    process.stdout.write = (chunk: string) => (stdout.push(String(chunk)), true);
    restoreWrite = () => (process.stdout.write = write);
    // Only the key file goes to DATA_DIR here: the database stays in memory or on the server.
    t = await createTestApp({ env: { SEED_DEMO: 'on', DEMO_PARTNER_KEY: 'demo-partner-key-from-env-0001' } });
  });
  afterAll(async () => {
    restoreWrite();
    await t.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('seeds Tolvan (KYC done, two SEK accounts) and Sven (KYC not done) on a fresh database (contract §8)', async () => {
    const tolvan = await t.admin.get('/admin/users/191212121212').expect(200);
    expect(tolvan.body).toMatchObject({ name: 'Tolvan Tolvansson', kyc_completed: true, eid_behaviour: 'AUTO_COMPLETE' });
    expect(tolvan.body.accounts).toHaveLength(2);
    expect(tolvan.body.accounts.every((a: { currency: string }) => a.currency === 'SEK')).toBe(true);
    const sven = await t.admin.get('/admin/users/198112189876').expect(200);
    expect(sven.body).toMatchObject({ name: 'Sven Svensson', kyc_completed: false });
  });

  it('gives the demo partner the DEMO_PARTNER_KEY and prints it once on the console, not in the logs (contract §8)', async () => {
    expect(await t.get(PartnerService).authenticate('demo-partner-key-from-env-0001')).toMatchObject({ name: 'Demo Partner' });
    expect(stdout.join('')).toContain('demo-partner-key-from-env-0001');
    expect(JSON.stringify(t.logs)).not.toContain('demo-partner-key-from-env-0001');
  });

  it('seeds only once per database: starting again on it adds nothing and prints nothing (contract §8)', async () => {
    const printedBefore = stdout.length;
    await t.get(DemoSeeder).onApplicationBootstrap();
    const tolvan = await t.admin.get('/admin/users/191212121212').expect(200);
    expect(tolvan.body.accounts).toHaveLength(2);
    expect(stdout.length).toBe(printedBefore);
    expect(await t.get(PartnerService).authenticate('demo-partner-key-from-env-0001')).toMatchObject({ name: 'Demo Partner' });
  });

  it('writes a random demo key to DATA_DIR/demo-partner-key when DEMO_PARTNER_KEY is not set (contract §8)', async () => {
    const fresh = await createTestApp({ env: { SEED_DEMO: 'on', DATA_DIR: t.db.onServer ? dataDir : 'memory://' } });
    try {
      if (t.db.onServer) {
        const key = readFileSync(join(dataDir, 'demo-partner-key'), 'utf8').trim();
        expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
        expect(await fresh.get(PartnerService).authenticate(key)).toMatchObject({ name: 'Demo Partner' });
      }
      const printed = stdout.join('').match(/Demo partner key[^:]*: (\S+)/g) ?? [];
      expect(printed.length).toBeGreaterThanOrEqual(2);
    } finally {
      await fresh.close();
    }
  });
});

describeOnServer('the demo set with several instances (contract §8, §1)', () => {
  it('two instances starting together on a fresh database seed it exactly once', async () => {
    const db = await freshDatabase();
    const [a, b] = await Promise.all([
      createTestApp({ db, env: { SEED_DEMO: 'on' }, keepClock: true }),
      createTestApp({ db, env: { SEED_DEMO: 'on' }, keepClock: true }),
    ]);
    try {
      const tolvan = await a.admin.get('/admin/users/191212121212').expect(200);
      expect(tolvan.body.accounts).toHaveLength(2);
      const partners: Array<{ count: string }> = await a.get(DataSource).query(`SELECT count(*) FROM partner WHERE name = 'Demo Partner'`);
      expect(Number(partners[0].count)).toBe(1);
    } finally {
      await b.close();
      await a.close();
      await db.drop();
    }
  });
});
