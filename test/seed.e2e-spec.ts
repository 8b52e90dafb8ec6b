import { randomInt } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PartnerService, TppRegistry } from '@app/directory';
import { DemoSeeder } from '@app/sandbox';
import { newPartner, sampleFixture } from './support/fixtures';
import { newPersonalNumber, withWrongCheckDigit } from './support/personal-numbers';
import { expectProblem, expectValidationFailed } from './support/problems';
import { bearer, expectOAuthError, Psd2Client } from './support/psd2';
import { createSandbox, rowDigests, sandboxView } from './support/sandboxes';
import { describeOnServer } from './support/server-only';
import { BASE_TIME, closeApps, createTestApp, TestApp, twoInstances } from './support/test-app';
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

interface ReseededUser {
  personal_number: string;
  name: string;
  kyc_completed: boolean;
  eid_behaviour: string;
  accounts: [{ name: string; currency: string; balance: number; account_number: string }, ...Array<{ name: string; currency: string; balance: number; account_number?: string }>];
}

/** A fixture user of contract §8: AUTO_COMPLETE, KYC done, a numbered SEK account of 1 000 and an unnumbered one of 50. */
function fixtureUser(): ReseededUser {
  const personalNumber = newPersonalNumber();
  return {
    personal_number: personalNumber,
    name: 'Rita Reseed',
    kyc_completed: true,
    eid_behaviour: 'AUTO_COMPLETE',
    accounts: [
      { name: 'Lönekonto', currency: 'SEK', balance: 1000, account_number: `9250${String(randomInt(1e7)).padStart(7, '0')}` },
      { name: 'Sparkonto', currency: 'SEK', balance: 50 },
    ],
  };
}
type FixtureUserOf = ReseededUser;

describe('seeding a user again replaces it as if new (contract §8)', () => {
  let t: TestApp;
  let tpp: Psd2Client;
  beforeAll(async () => {
    // TRUST_PROXY: the signing starts below come from two IP addresses (contract §11).
    t = await createTestApp({ frozenAt: BASE_TIME, env: { TRUST_PROXY: 'on' } });
    tpp = await Psd2Client.create(t);
  });
  afterAll(() => t.close());
  beforeEach(() => t.clock.freeze());

  const seed = async (...users: FixtureUserOf[]) => (await t.admin.post('/admin/seed', { users }).expect(200)).body;
  const runJobs = () => t.admin.post('/admin/jobs/run').expect(200);
  const tokenOf = async (user: FixtureUserOf, client = tpp) => (await client.tokens({ user: user.personal_number })).access_token;
  const get = (path: string, token: string) => t.http.get(path).set(bearer(tpp, token));
  const order = (account: string, token: string, over: Record<string, unknown> = {}, kind = 'transfers') =>
    t.http
      .post(`/psd2/savings/3.0/accounts/${account}/${kind}`)
      .set(bearer(tpp, token))
      .send({ amount: 100, currency: 'SEK', transfer_date: '2026-11-24', recipient_account_number: '5050-1055', recipient_name: 'Anna Svensson', ...over });
  const sign = async (token: string, referenceIds: string[]) => {
    const { signing_id } = (await t.http.post('/psd2/savings/3.0/transfers/signing/start').set(bearer(tpp, token)).send({ reference_ids: referenceIds }).expect(200)).body;
    expect((await t.http.post('/psd2/savings/3.0/transfers/signing/collect').set(bearer(tpp, token)).send({ signing_id }).expect(200)).body.status).toBe('COMPLETE');
  };
  const openOrdersOf = async (personalNumber: string) =>
    Number((await t.get(DataSource).query(`SELECT count(*) AS n FROM eid_order WHERE personal_number = $1 AND status IN ('INITIATED', 'PENDING')`, [personalNumber]))[0].n);

  it('the same balances again, and none of the old transfers, recurring transfers or transactions; an unnumbered account is not doubled (contract §8)', async () => {
    const user = fixtureUser();
    const [seeded] = (await seed(user)).users;
    const account = seeded.accounts[0].account_number;
    const token = await tokenOf(user);
    const paid = (await order(account, token).expect(201)).body.reference_id;
    const later = (await order(account, token, { transfer_date: '2026-11-30' }).expect(201)).body.reference_id;
    const recurring = (await order(account, token, { transfer_date: '2026-12-01', frequency: 'MONTHLY' }, 'recurring-transfers').expect(201)).body.reference_id;
    await sign(token, [paid, later, recurring]);
    await runJobs();
    expect((await get(`/v2/accounts/${account}`, token).expect(200)).body).toMatchObject({ balance: 900, transactions: [expect.objectContaining({ reference_id: paid })] });

    const [again] = (await seed(user)).users;
    expect(again).toEqual({
      personal_number: user.personal_number,
      created: false,
      accounts: [
        { account_number: account, name: 'Lönekonto', currency: 'SEK', balance: 1000, available_balance: 1000 },
        { account_number: expect.any(String), name: 'Sparkonto', currency: 'SEK', balance: 50, available_balance: 50 },
      ],
    });
    const stored = (await t.admin.get(`/admin/users/${user.personal_number}`).expect(200)).body.accounts;
    expect(stored).toHaveLength(2);
    expect(stored).toEqual(expect.arrayContaining(again.accounts));
    const fresh = await tokenOf(user);
    expect((await get(`/v2/accounts/${account}`, fresh).expect(200)).body).toMatchObject({ balance: 1000, available_balance: 1000, transactions: [] });
    expect((await get(`/v2/accounts/${account}/transfers`, fresh).expect(200)).body.transfers).toEqual([]);
    expect((await get('/psd2/savings/3.0/accounts/recurring-transfers', fresh).expect(200)).body.recurring_transfers).toEqual([]);
    expectProblem(await get(`/psd2/savings/3.0/accounts/${account}/transfers/${later}/status`, fresh), 404, 'NOT_FOUND');
    // Nothing of the old orders runs later: past their dates the jobs book nothing on the new account.
    await t.clock.freeze('2026-12-02T12:00:00+01:00');
    await runJobs();
    expect((await t.admin.get(`/admin/users/${user.personal_number}`).expect(200)).body.accounts).toEqual(expect.arrayContaining([expect.objectContaining({ account_number: account, balance: 1000 })]));
  });

  it("the user's access tokens (any kind, cached or not), refresh tokens and pending codes go: 401, invalid_grant, 404; its open eid orders are cancelled; another user's stay (contract §8)", async () => {
    const [user, other] = [fixtureUser(), fixtureUser()];
    await seed(user, other);
    const token = await tokenOf(user);
    await get('/v2/accounts', token).expect(200);
    const nonAuthenticated = (await tpp.nonAuthenticated(user.personal_number).expect(200)).body.access_token;
    const refreshToken = (await tpp.tokens({ flow: 'authorize', user: user.personal_number, scopes: 'AIS' })).refresh_token as string;
    const unexchanged = await tpp.completedCode({ user: user.personal_number });
    // AUTO_COMPLETE: the order stays PENDING until its first status call.
    const { pendingCode: open } = await tpp.pendingCode({ user: user.personal_number });
    const othersToken = await tokenOf(other);
    expect(await openOrdersOf(user.personal_number)).toBe(1);

    await seed(user);
    expectProblem(await get('/v2/accounts', token), 401, 'UNAUTHORIZED');
    expectProblem(await get('/v2/accounts', nonAuthenticated), 401, 'UNAUTHORIZED');
    expectOAuthError(await tpp.refresh(refreshToken), 400, 'invalid_grant');
    expectOAuthError(await tpp.exchange(unexchanged), 400, 'invalid_grant');
    expectProblem(await tpp.status(unexchanged), 404, 'NOT_FOUND');
    expectProblem(await tpp.status(open), 404, 'NOT_FOUND');
    expect(await openOrdersOf(user.personal_number)).toBe(0);
    const consents = await t.get(DataSource).query(`SELECT count(*)::int AS n FROM psd2_consent WHERE personal_number = $1`, [user.personal_number]);
    expect(consents).toEqual([{ n: 0 }]);

    expect((await get('/v2/accounts', othersToken).expect(200)).body.accounts).toHaveLength(2);
    expect((await get('/v2/accounts', await tokenOf(user)).expect(200)).body.accounts).toHaveLength(2);
  });

  it("the user's enterprise end-user tokens go and its signing block ends; a partner's pre-approval and loan application naming it stay, the open signing cancelled (contract §8, §11)", async () => {
    const user = fixtureUser();
    await seed(user);
    const partner = { Authorization: `Bearer ${(await newPartner(t)).api_key}` };
    const loan = (await t.http.post('/api/loan-application/2.0/mortgages').set(partner).send({ applicants: [{ personal_number: user.personal_number, yearly_income: 700_000 }], loan_amount: 1_000_000 }).expect(201)).body.id;
    const { pending_authorization_code } = (
      await t.http.get('/api/auth/1.0/authorize').set(partner).query({ client_id: 'app', response_type: 'pending_code', scope: 'loan.read', user_id: user.personal_number }).expect(200)
    ).body;
    const endUser = { Authorization: `Bearer ${(await t.http.post('/api/auth/1.0/token').set(partner).type('form').send({ grant_type: 'pending_authorization_code', pending_code: pending_authorization_code }).expect(200)).body.access_token}` };
    await t.http.get(`/api/loan-application/2.0/mortgages/status/${loan}`).set(endUser).expect(200);
    const preApproval = (await t.http.post('/mortgage/2.0/pre-approval').set(partner).send({ applicants: [{ personal_number: user.personal_number, yearly_income: 1_000_000 }], loan_amount: 1_000_000 }).expect(201)).body.id;
    const [participant] = (await t.http.post(`/mortgage/2.0/pre-approval/${preApproval}/acceptance`).set(partner).send({ with_unsecured_loan: false }).expect(200)).body.signing_process.participants;
    const signing = (path: string, ip = '198.51.100.1') => t.http.post(`/signing/1.0/${path}`).set({ ...partner, 'X-Forwarded-For': ip }).send({ participant_id: participant.id });
    await signing('start').expect(200);
    // From another IP while the order is open: 409, and the person is blocked for 180 s (contract §11).
    expectProblem(await signing('start', '198.51.100.2'), 409, 'RFA4_SIGNING_IN_PROGRESS');
    expectProblem(await signing('start'), 409, 'RFA4_SIGNING_IN_PROGRESS');

    await seed(user);
    expectProblem(await t.http.get(`/api/loan-application/2.0/mortgages/status/${loan}`).set(endUser), 401, 'UNAUTHORIZED');
    expect((await t.http.get(`/api/loan-application/2.0/mortgages/status/${loan}`).set(partner).expect(200)).body.status).toBeDefined();
    expect((await signing('collect').expect(200)).body).toEqual({ status: 'FAILED', hint_code: 'CANCELLED' });
    await signing('start').expect(200);
    expect((await signing('collect').expect(200)).body.status).toBe('COMPLETE');
    expect((await t.http.get(`/mortgage/2.0/pre-approval/${preApproval}/status`).set(partner).expect(200)).body.status).toEqual({ type: 'PROCESSING' });
  });

  it("an entry the user's transfer booked on another user's account stays, with that account's balance (contract §8)", async () => {
    const [user, other] = [fixtureUser(), fixtureUser()];
    await seed(user, other);
    const [from, to] = [user.accounts[0].account_number, other.accounts[0].account_number];
    const token = await tokenOf(user);
    const paid = (await order(from, token, { recipient_account_number: to }).expect(201)).body.reference_id;
    await sign(token, [paid]);
    await runJobs();
    const othersToken = await tokenOf(other);
    const credited = (await get(`/v2/accounts/${to}`, othersToken).expect(200)).body;
    expect(credited).toMatchObject({ balance: 1100, transactions: [expect.objectContaining({ reference_id: paid, amount: 100 })] });

    await seed(user);
    expect((await get(`/v2/accounts/${to}`, othersToken).expect(200)).body).toEqual(credited);
    expect((await get(`/v2/accounts/${from}`, await tokenOf(user)).expect(200)).body).toMatchObject({ balance: 1000, transactions: [] });
  });

  it('all or nothing: a fixture refused for a late conflict leaves the user seeded again as it was, tokens and transfers included (contract §2, §8)', async () => {
    const [user, owner] = [fixtureUser(), fixtureUser()];
    await seed(user, owner);
    const token = await tokenOf(user);
    const account = user.accounts[0].account_number;
    const ordered = (await order(account, token).expect(201)).body.reference_id;
    const intruder: ReseededUser = { ...fixtureUser(), accounts: [{ name: 'Taken', currency: 'SEK', balance: 1, account_number: owner.accounts[0].account_number }] };
    expectProblem(await t.admin.post('/admin/seed', { users: [user, intruder] }), 409, 'CONFLICT');
    await get(`/psd2/savings/3.0/accounts/${account}/transfers/${ordered}/status`, token).expect(200);
    await t.admin.get(`/admin/users/${intruder.personal_number}`).expect(404);
  });

  it("frees a reseeded user's account number for another user of the same fixture, whatever their order (contract §8)", async () => {
    const [first, second] = [fixtureUser(), fixtureUser()];
    await seed(first, second);
    // The second now takes the first's numbered account; the first gets a new number.
    const swapped: ReseededUser = { ...second, accounts: [{ ...second.accounts[0], account_number: first.accounts[0].account_number }] };
    const renumbered: ReseededUser = { ...first, accounts: [{ ...first.accounts[0], account_number: second.accounts[0].account_number }] };
    const { users } = await seed(swapped, renumbered);
    expect(users.map((u: { accounts: Array<{ account_number: string }> }) => u.accounts.map((a) => a.account_number))).toEqual([
      [first.accounts[0].account_number],
      [second.accounts[0].account_number],
    ]);
  });

  it('PUT /admin/users/{personal_number} on an existing user is an update (200): its accounts, transfers and tokens stay (contract §8)', async () => {
    const user = fixtureUser();
    await seed(user);
    const token = await tokenOf(user);
    const ordered = (await order(user.accounts[0].account_number, token).expect(201)).body.reference_id;
    await t.admin.put(`/admin/users/${user.personal_number}`, { name: 'Rita Renamed', kyc_completed: true }).expect(200);
    expect((await get('/v2/accounts', token).expect(200)).body.accounts).toHaveLength(2);
    await get(`/psd2/savings/3.0/accounts/${user.accounts[0].account_number}/transfers/${ordered}/status`, token).expect(200);
  });

  it('another sandbox is untouched: the same personal number and account number there keep everything (contract §8, §13)', async () => {
    const user = fixtureUser();
    await seed(user);
    const sandbox = await createSandbox(t, { seed_demo: false, clock: { now: BASE_TIME, frozen: true }, fixture: { users: [user] } });
    const view = sandboxView(t, sandbox, BASE_TIME);
    const there = await Psd2Client.create(view);
    const token = (await there.tokens({ user: user.personal_number })).access_token;
    const account = user.accounts[0].account_number;
    const ordered = (await view.http.post(`/psd2/savings/3.0/accounts/${account}/transfers`).set(bearer(there, token))
      .send({ amount: 100, currency: 'SEK', transfer_date: '2026-11-24', recipient_account_number: '5050-1055', recipient_name: 'Anna Svensson' }).expect(201)).body.reference_id;
    const before = await rowDigests(t.get(DataSource), sandbox.sandbox_id);

    await seed(user);
    expect(await rowDigests(t.get(DataSource), sandbox.sandbox_id)).toEqual(before);
    await view.http.get(`/psd2/savings/3.0/accounts/${account}/transfers/${ordered}/status`).set(bearer(there, token)).expect(200);
  });
});

describeOnServer('seeding a user again, two instances (contract §8, §1)', () => {
  it("the user's access token cached on another instance is 401 there within a second", async () => {
    const [a, b] = await twoInstances({ frozenAt: BASE_TIME });
    try {
      await a.clock.freeze();
      const user = fixtureUser();
      await a.admin.post('/admin/seed', { users: [user] }).expect(200);
      const tpp = await Psd2Client.create(a);
      const token = (await tpp.tokens({ user: user.personal_number })).access_token;
      const read = () => b.http.get('/v2/accounts').set(bearer(tpp, token));
      await read().expect(200);
      await a.admin.post('/admin/seed', { users: [user] }).expect(200);
      // Within a second, re-asked for up to 1.5 s of real time as clients do (request time included).
      const deadline = Date.now() + 1500;
      let status = (await read()).status;
      while (status !== 401 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        status = (await read()).status;
      }
      expect(status).toBe(401);
    } finally {
      await closeApps(a, b);
    }
  });
});
