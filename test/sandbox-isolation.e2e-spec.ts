import { ArgumentsHost, Body, CallHandler, CanActivate, Catch, Controller, ExceptionFilter, ExecutionContext, Module, NestInterceptor, Post, UseFilters, UseGuards, UseInterceptors } from '@nestjs/common';
import type { Response } from 'express';
import { tap } from 'rxjs';
import { Test } from '@nestjs/testing';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { DatabaseModule, hashSecret, type PersonalNumber, SandboxConfigModule, Public, SandboxClock, SandboxContext, SandboxDb, UnscopedStatement } from '@app/common';
import { PartnerService, TppRegistry, UserService } from '@app/directory';
import { AccountService } from '@app/savings';
import { newPartner, sampleFixture } from './support/fixtures';
import { newPersonalNumber } from './support/personal-numbers';
import { bearer, certificate, newPsu, newUser, Psd2Client } from './support/psd2';
import { createSandbox, rowCounts, sandboxTables } from './support/sandboxes';
import { ADMIN_KEY, BASE_TIME, createTestApp, recordStatements, TestApp } from './support/test-app';
import { freshDatabase, type TestDatabase } from './support/test-db';
import { MIGRATIONS } from '../migrations';

/** The tables that hold no sandbox's data: the service's own. */
// sandbox_ca and issued_certificate: strict mode's one CA and its serials, shared by every sandbox (contract §16).
const SERVICE_TABLES = ['issued_certificate', 'job_lease', 'migrations', 'sandbox', 'sandbox_ca', 'sandbox_change', 'sandbox_creation'];


/** What each stage of a request saw as its sandbox (contract §13: the sandbox reaches every stage). */
const seen: Record<string, string> = {};
const sandboxNow = () => (SandboxContext.active ? SandboxContext.sandboxId : 'none');

class RecordingGuard implements CanActivate {
  canActivate(): boolean {
    seen.guard = sandboxNow();
    return true;
  }
}

class RecordingInterceptor implements NestInterceptor {
  intercept(_context: ExecutionContext, next: CallHandler) {
    seen.interceptor = sandboxNow();
    return next.handle().pipe(tap(() => (seen.afterHandler = sandboxNow())));
  }
}

class Refused extends Error {}

@Catch(Refused)
class RecordingFilter implements ExceptionFilter {
  catch(_error: Refused, host: ArgumentsHost): void {
    seen.filter = sandboxNow();
    host.switchToHttp().getResponse<Response>().status(418).json(seen);
  }
}

@Controller('test-sandbox-context')
class SandboxContextController {
  @Post()
  @Public()
  @UseGuards(RecordingGuard)
  @UseInterceptors(RecordingInterceptor)
  @UseFilters(RecordingFilter)
  async handle(@Body() body: { fail?: boolean }): Promise<Record<string, string>> {
    await new Promise((resolve) => setTimeout(resolve, 5));
    seen.handler = sandboxNow();
    if (body.fail) throw new Refused();
    return seen;
  }
}

@Module({ controllers: [SandboxContextController], providers: [RecordingGuard, RecordingInterceptor, RecordingFilter] })
class SandboxContextModule {}

describe('contract §13: the request\'s sandbox reaches every stage, after the body parser', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ imports: [SandboxContextModule] });
  });
  afterAll(() => t.close());

  it('guard, interceptor, handler (after an await) and exception filter all run in the default sandbox', async () => {
    const ok = await request(t.app.getHttpServer()).post('/test-sandbox-context').send({ fail: false }).expect(201);
    expect(ok.body).toEqual({ guard: 'default', interceptor: 'default', handler: 'default', afterHandler: 'default' });
    for (const stage of Object.keys(seen)) delete seen[stage];
    const refused = await request(t.app.getHttpServer()).post('/test-sandbox-context').send({ fail: true }).expect(418);
    expect(refused.body).toEqual({ guard: 'default', interceptor: 'default', handler: 'default', filter: 'default' });
  });
});

/** A second sandbox made by hand: the lifecycle API that creates them comes later (issue 15). */
async function addSandbox(dataSource: DataSource, id: string): Promise<void> {
  await dataSource.query(`INSERT INTO sandbox (id, name) VALUES ($1, $1)`, [id]);
  await dataSource.query(`INSERT INTO sandbox_clock (sandbox_id) VALUES ($1)`, [id]);
}

describe('contract §13 Isolation: every statement on sandbox data names its sandbox', () => {
  let t: TestApp;
  let namesASandboxTable: RegExp;
  let statements: string[];
  beforeAll(async () => {
    t = await createTestApp();
    namesASandboxTable = new RegExp(`\\b(${(await sandboxTables(t.get(DataSource))).join('|')})\\b`, 'i');
    statements = recordStatements(t);
  });
  afterAll(() => t.close());

  it('every table but the service\'s own carries sandbox_id', async () => {
    const tables: Array<{ table_name: string }> = await t.get(DataSource).query(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`,
    );
    const scoped = await sandboxTables(t.get(DataSource));
    expect(tables.map((row) => row.table_name).filter((table) => !scoped.includes(table))).toEqual([...SERVICE_TABLES].sort());
    expect(scoped).toEqual(expect.arrayContaining(['sandbox_clock', 'sandbox_user', 'partner', 'tpp', 'account', 'transfer', 'eid_order', 'psd2_access_token']));
  });

  it('every foreign key between tables of sandbox data includes sandbox_id: no row can reference another sandbox\'s', async () => {
    // pg_constraint names every column of a key, in order; a key without sandbox_id on both sides
    // would let a row of one sandbox point at a row of another (the ids are UUIDs, unique across sandboxes).
    const keys: Array<{ name: string; child: string; parent: string; columns: string[]; referenced: string[] }> = await t.get(DataSource).query(`
      SELECT c.conname AS name, c.conrelid::regclass::text AS child, c.confrelid::regclass::text AS parent,
             array(SELECT attname FROM unnest(c.conkey) WITH ORDINALITY k(n, i) JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.n ORDER BY k.i)::text[] AS columns,
             array(SELECT attname FROM unnest(c.confkey) WITH ORDINALITY k(n, i) JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.n ORDER BY k.i)::text[] AS referenced
      FROM pg_constraint c
      WHERE c.contype = 'f' AND c.connamespace = current_schema()::regnamespace AND c.confrelid <> 'sandbox'::regclass
      ORDER BY 1`);
    expect(keys.length).toBeGreaterThan(20);
    const unscoped = keys.filter((key) => key.columns[0] !== 'sandbox_id' || key.referenced[0] !== 'sandbox_id').map((key) => `${key.child}.${key.name} → ${key.parent}(${key.referenced.join(', ')})`);
    expect(unscoped).toEqual([]);
  });

  it('a write into a sandbox deleted meanwhile fails on its sandbox_id foreign key before any other (the sandbox\'s 404, never a 500: contract §13 Lifecycle)', async () => {
    // PostgreSQL checks a row's foreign keys in the order of their trigger names, which follow creation.
    const triggers: Array<{ child: string; constraint: string }> = await t.get(DataSource).query(`
      SELECT tg.tgrelid::regclass::text AS child, c.conname AS constraint
      FROM pg_trigger tg JOIN pg_constraint c ON c.oid = tg.tgconstraint
      WHERE c.contype = 'f' AND tg.tgrelid = c.conrelid AND tg.tgname LIKE 'RI_ConstraintTrigger_c_%' AND c.conrelid IN (SELECT conrelid FROM pg_constraint WHERE contype = 'f' AND confrelid <> 'sandbox'::regclass)
      ORDER BY tg.tgrelid::regclass::text, tg.tgname`);
    const firstChecked = new Map<string, string>();
    for (const { child, constraint } of triggers) if (!firstChecked.has(child)) firstChecked.set(child, constraint);
    expect(firstChecked.size).toBeGreaterThan(10);
    for (const [child, constraint] of firstChecked) expect({ child, constraint }).toEqual({ child, constraint: `${child}_sandbox_id_fkey` });

    // As a request in flight would: the sandbox and its TPP are gone when its consent is written.
    const sandbox = await createSandbox(t, { seed_demo: false });
    await t.http.put(`/sandboxes/${sandbox.sandbox_id}/admin/tpps/PSDSE-GONE-1`).set({ Authorization: `Bearer ${sandbox.admin_key}` }).send({ non_authenticated_token_lifetime_s: 60 }).expect(200);
    const [{ id: tppId }] = await t.get(DataSource).query(`SELECT id FROM tpp WHERE sandbox_id = $1`, [sandbox.sandbox_id]);
    await t.get(DataSource).query(`DELETE FROM sandbox WHERE id = $1`, [sandbox.sandbox_id]);
    const write = t.get(DataSource).query(
      `INSERT INTO psd2_consent (sandbox_id, tpp_id, personal_number, scopes, granted_at, expires_at) VALUES ($1, $2, '191212121212', '{AIS}', now(), now())`,
      [sandbox.sandbox_id, tppId],
    );
    await expect(write).rejects.toMatchObject({ driverError: { code: '23503', constraint: 'psd2_consent_sandbox_id_fkey' } });
  });

  it('in a broad flow (admin, seed, PSD2 auth and tokens, AIS, PIS with signing and execution, partner signing, mortgage, enterprise, eid simulator, jobs)', async () => {
    const { fixture } = sampleFixture();
    await t.admin.post('/admin/seed', fixture).expect(200);
    await t.admin.get('/admin/users').expect(200);
    await t.clock.set('2026-11-24T10:00:00+01:00', true);

    // PSD2: a MANUAL user (eid simulator), tokens, refresh, AIS and a signed, executed transfer.
    const psu = await newPsu(t, { eid: 'MANUAL' });
    const token = await psu.token('authorize', 'AIS,PIS');
    const headers = bearer(psu.tpp, token);
    await t.http.get('/v2/accounts').set(headers).expect(200);
    await t.http.get(`/v2/accounts/${psu.accounts[0]}`).set(headers).expect(200);
    const pis = `/psd2/savings/3.0/accounts/${psu.accounts[0]}`;
    const transfer = { amount: 10, currency: 'SEK', transfer_date: '2026-11-25', recipient_account_number: '5050-1055', recipient_name: 'Anna' };
    const { reference_id } = (await t.http.post(`${pis}/transfers`).set(headers).send(transfer).expect(201)).body;
    await t.http.post(`${pis}/recurring-transfers`).set(headers).send({ ...transfer, frequency: 'MONTHLY' }).expect(201);
    const { signing_id } = (await t.http.post('/psd2/savings/3.0/transfers/signing/start').set(headers).send({ reference_ids: [reference_id] }).expect(200)).body;
    await t.http.put(`/psd2/savings/3.0/transfers/sign-bankid/${signing_id}`).set(headers).expect(204);
    await t.http.post('/psd2/savings/3.0/transfers/signing/collect').set(headers).send({ signing_id }).expect(200);
    await psu.tpp.nonAuthenticated(psu.user).expect(200);
    await t.clock.advance(2 * 86_400);
    await t.admin.post('/admin/jobs/run').expect(200);
    const renewed = bearer(psu.tpp, await psu.token());
    await t.http.get(`${pis}/transfers/${reference_id}/status`).set(renewed).expect(200);
    await t.http.get(`/v2/accounts/${psu.accounts[0]}/transfers`).set(renewed).expect(200);

    // Partner: a pre-approval signed through partner signing, a loan application, enterprise tokens.
    const key = (await newPartner(t)).api_key;
    const partner = { Authorization: `Bearer ${key}` };
    const applicants = [{ personal_number: await newUser(t), yearly_income: 1_000_000 }];
    const id = (await t.http.post('/mortgage/2.0/pre-approval').set(partner).send({ applicants, loan_amount: 1_000_000 }).expect(201)).body.id;
    const [p] = (await t.http.post(`/mortgage/2.0/pre-approval/${id}/acceptance`).set(partner).send({ with_unsecured_loan: false }).expect(200)).body.signing_process.participants;
    await t.http.post('/signing/1.0/start').set(partner).send({ participant_id: p.id }).expect(200);
    await t.http.post('/signing/1.0/collect').set(partner).send({ participant_id: p.id }).expect(200);
    await t.http.get(`/mortgage/2.0/pre-approval/${id}/status`).set(partner).expect(200);
    const borrower = await newUser(t);
    await t.http.post('/api/loan-application/2.0/mortgages').set(partner).send({ applicants: [{ personal_number: borrower, yearly_income: 700_000 }], loan_amount: 1_000_000 }).expect(201);
    await t.http.post('/api/auth/1.0/token').set(partner).type('form').send({ grant_type: 'client_credentials' }).expect(200);
    const { pending_authorization_code } = (
      await t.http.get('/api/auth/1.0/authorize').set(partner).query({ client_id: 'app', response_type: 'pending_code', scope: 'loan.read', user_id: borrower }).expect(200)
    ).body;
    await t.http.post('/api/auth/1.0/token').set(partner).type('form').send({ grant_type: 'pending_authorization_code', pending_code: pending_authorization_code }).expect(200);
    await t.admin.post('/admin/jobs/run').expect(200);

    const touched = statements.filter((sql) => namesASandboxTable.test(sql));
    expect(touched.length).toBeGreaterThan(100);
    const unscoped = touched.filter((sql) => !/\bsandbox_id\b/i.test(sql)).map((sql) => sql.replace(/\s+/g, ' ').slice(0, 160));
    expect(unscoped).toEqual([]);
  });

  it('SandboxDb refuses a statement that does not scope the sandbox, and a call outside any sandbox context', async () => {
    const db = t.get(SandboxDb);
    await expect(db.query('SELECT count(*) FROM partner')).rejects.toThrow(UnscopedStatement);
    await expect(t.app.get(SandboxDb).query('SELECT count(*) FROM partner WHERE sandbox_id = $1')).rejects.toThrow(/No sandbox context/);
    expect(() => t.app.get(SandboxClock).now()).toThrow(/No sandbox context/);
  });
});

describe('contract §13 Isolation: the same personal number, account number, partner key and TPP in two sandboxes are each their own', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await addSandbox(t.get(DataSource), 'other');
  });
  afterAll(() => t.close());

  const inSandbox = <T>(sandboxId: string, work: () => Promise<T>) => SandboxContext.run(sandboxId, work);

  it('keeps users, accounts, partners, TPPs and clocks apart, and deleting a sandbox removes every row of it', async () => {
    const users = t.get(UserService);
    const accounts = t.get(AccountService);
    const partners = t.get(PartnerService);
    const tpps = t.get(TppRegistry);
    const clock = t.get(SandboxClock);
    const pn = newPersonalNumber() as PersonalNumber;
    const accountNumber = `9250${String(Date.now()).slice(-7)}`;
    const partnerKey = `shared-partner-key-${Date.now()}`;

    for (const [sandbox, name, balanceMinor] of [['default', 'Default Person', 100n], ['other', 'Other Person', 999n]] as const) {
      await inSandbox(sandbox, async () => {
        await users.put(pn, { name, kycCompleted: true });
        await accounts.open(pn, { name: 'Konto', currency: 'SEK', balanceMinor, accountNumber });
        await partners.ensure(`Partner of ${sandbox}`, partnerKey);
        await tpps.configure('PSDSE-SHARED-1', { nonAuthenticatedTokenLifetimeS: sandbox === 'other' ? 60 : 1800 });
      });
    }
    await inSandbox('other', () => clock.set(new Date('2020-01-01T00:00:00Z'), true));

    await inSandbox('default', async () => {
      expect((await users.find(pn))?.name).toBe('Default Person');
      expect((await accounts.listOwnedBy(pn)).map((a) => a.balance)).toEqual(['1.00']);
      expect((await partners.authenticate(partnerKey))?.name).toBe('Partner of default');
      expect((await tpps.configure('PSDSE-SHARED-1', { nonAuthenticatedTokenLifetimeS: 1800 })).nonAuthenticatedTokenLifetimeS).toBe(1800);
      await clock.sync();
      expect(clock.now().getUTCFullYear()).toBeGreaterThan(2020);
    });
    await inSandbox('other', async () => {
      expect((await users.find(pn))?.name).toBe('Other Person');
      expect((await accounts.listOwnedBy(pn)).map((a) => a.balance)).toEqual(['9.99']);
      expect((await partners.authenticate(partnerKey))?.name).toBe('Partner of other');
      expect(clock.now().toISOString()).toBe('2020-01-01T00:00:00.000Z');
    });
    // The default sandbox's admin API sees its own user only.
    expect((await t.admin.get(`/admin/users/${pn}`).expect(200)).body.name).toBe('Default Person');

    const dataSource = t.get(DataSource);
    const count = async (sandboxId: string) => {
      const tables = await sandboxTables(dataSource);
    const counts = await Promise.all(tables.map(async (table) => (await dataSource.query(`SELECT count(*)::int AS n FROM ${table} WHERE sandbox_id = $1`, [sandboxId]))[0].n as number));
      return counts.reduce((a, b) => a + b, 0);
    };
    expect(await count('other')).toBe(5); // clock, user, account, partner, TPP
    await dataSource.query(`DELETE FROM sandbox WHERE id = 'other'`);
    expect(await count('other')).toBe(0);
    expect((await t.admin.get(`/admin/users/${pn}`).expect(200)).body.name).toBe('Default Person');
  });
});

describe('contract §13 migration: a database of the previous release upgrades in place, its data the default sandbox\'s', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('the schema before the sandbox migrations, seeded the old way (service and SQL), upgrades and is served as the default sandbox at the root and under /sandboxes/default', async () => {
    // Written by the service before the schema goes back: its statements are for the current schema.
    const frozenAt = '2026-11-24T11:22:33.000Z';
    await t.clock.freeze(frozenAt);
    const psu = await newPsu(t);
    const token = await psu.token();
    const { api_key } = await newPartner(t);
    const dataSource = t.get(DataSource);

    // Every migration from the first sandbox one on goes back: the schema is the previous release's.
    const firstSandboxMigration = MIGRATIONS.findIndex((m) => m.name === 'SandboxesScopeEveryTable1763800015000');
    expect(firstSandboxMigration).toBeGreaterThan(0);
    for (let i = MIGRATIONS.length; i > firstSandboxMigration; i--) await dataSource.undoLastMigration({ transaction: 'each' });
    expect(await sandboxTables(dataSource)).toEqual([]);
    const [{ clocks }] = await dataSource.query(`SELECT count(*)::int AS clocks FROM sandbox_clock WHERE id = 1`);
    expect(clocks).toBe(1);

    // Seeded the old way: rows as the previous release wrote them, without any sandbox.
    const pn = newPersonalNumber();
    const accountNumber = `9250${String(Date.now()).slice(-7)}`;
    const oldKey = `old-release-partner-key-${Date.now()}`;
    await dataSource.query(`INSERT INTO sandbox_user (personal_number, name, kyc_completed, eid_behaviour) VALUES ($1, 'Old Release', true, 'AUTO_COMPLETE')`, [pn]);
    await dataSource.query(`INSERT INTO account (account_number, owner_personal_number, name, currency, balance) VALUES ($1, $2, 'Gammalt konto', 'SEK', 123.45)`, [accountNumber, pn]);
    await dataSource.query(`INSERT INTO partner (name, api_key_hash) VALUES ('Old Partner AB', $1)`, [hashSecret(oldKey)]);

    await dataSource.runMigrations({ transaction: 'each' });
    const [{ n }] = await dataSource.query('SELECT count(*)::int AS n FROM migrations');
    expect(n).toBe(MIGRATIONS.length);
    for (const table of await sandboxTables(dataSource)) {
      const [{ others }] = await dataSource.query(`SELECT count(*)::int AS others FROM ${table} WHERE sandbox_id <> 'default'`);
      expect({ table, others }).toEqual({ table, others: 0 });
    }

    // Read back through the service, as the default sandbox, at the root and under its prefix.
    for (const prefix of ['', '/sandboxes/default']) {
      const user = await t.http.get(`${prefix}/admin/users/${pn}`).set({ Authorization: `Bearer ${ADMIN_KEY}` }).expect(200);
      expect(user.body).toMatchObject({ name: 'Old Release', accounts: [expect.objectContaining({ account_number: accountNumber, balance: 123.45 })] });
      const accounts = await t.http.get(`${prefix}/v2/accounts`).set(bearer(psu.tpp, token)).expect(200);
      expect(accounts.body.accounts.map((a: { account_number: string }) => a.account_number)).toEqual(psu.accounts);
      for (const key of [api_key, oldKey]) {
        await t.http.post(`${prefix}/api/auth/1.0/token`).set({ Authorization: `Bearer ${key}` }).type('form').send({ grant_type: 'client_credentials' }).expect(200);
      }
      expect((await t.http.get(`${prefix}/admin/clock`).set({ Authorization: `Bearer ${ADMIN_KEY}` }).expect(200)).body).toEqual({ now: frozenAt, frozen: true });
    }
    // A sandbox created after the upgrade has none of it.
    const created = await createSandbox(t, { seed_demo: false });
    await t.http.get(`/sandboxes/${created.sandbox_id}/admin/users/${pn}`).set({ Authorization: `Bearer ${created.admin_key}` }).expect(404);
  });
});

describe('contract §13 migration: a database made by the previous release (only its migrations) upgrades in place, its data the default sandbox\'s', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  /** A database as the previous release left it: its migrations only, then rows as it wrote them. */
  async function previousReleaseDatabase(seed: (dataSource: DataSource) => Promise<void>): Promise<TestDatabase> {
    const fresh = await freshDatabase();
    const db: TestDatabase = fresh.onServer ? fresh : { ...fresh, env: { ...fresh.env, DATA_DIR: mkdtempSync(join(tmpdir(), 'sandbox-upgrade-')) } };
    if (!fresh.onServer) dirs.push(db.env.DATA_DIR);
    const previous = MIGRATIONS.slice(0, MIGRATIONS.findIndex((m) => m.name === 'SandboxesScopeEveryTable1763800015000'));
    expect(previous.length).toBeGreaterThan(5);
    const moduleRef = await Test.createTestingModule({
      imports: [SandboxConfigModule.forRoot({ ADMIN_API_KEY: ADMIN_KEY, LOG_LEVEL: 'silent', ...db.env }), DatabaseModule.forRoot({ migrations: previous })],
    }).compile();
    const old = moduleRef.createNestApplication({ logger: false });
    await old.init();
    try {
      const dataSource = old.get(DataSource);
      expect(await sandboxTables(dataSource)).toEqual([]);
      await seed(dataSource);
    } finally {
      await old.close();
    }
    return db;
  }

  it('its users, accounts, partner key, TPP setting and a PSD2 token are served as the default sandbox\'s at the root and under /sandboxes/default; a new sandbox has none of them', async () => {
    const pn = newPersonalNumber();
    const accountNumber = `9250${String(Date.now()).slice(-7)}`;
    const partnerKey = `previous-release-partner-key-${Date.now()}`;
    const organizationId = `PSDSE-PREV-${String(Date.now()).slice(-8)}`;
    const accessToken = randomBytes(32).toString('base64url');
    const issuedAt = new Date(new Date(BASE_TIME).getTime() - 60_000);
    const db = await previousReleaseDatabase(async (old) => {
      await old.query(`INSERT INTO sandbox_user (personal_number, name, kyc_completed) VALUES ($1, 'Previous Release', true)`, [pn]);
      await old.query(`INSERT INTO account (account_number, owner_personal_number, name, currency, balance) VALUES ($1, $2, 'Gammalt konto', 'SEK', 123.45)`, [accountNumber, pn]);
      await old.query(`INSERT INTO partner (name, api_key_hash) VALUES ('Previous Partner AB', $1)`, [hashSecret(partnerKey)]);
      const [tpp] = await old.query(`INSERT INTO tpp (identifier, non_authenticated_token_lifetime_s) VALUES ($1, 600) RETURNING id`, [organizationId]);
      await old.query(
        `INSERT INTO psd2_access_token (token_hash, kind, tpp_id, personal_number, scopes, issued_at, expires_at) VALUES ($1, 'authenticate', $2, $3, '{AIS,PIS}', $4, $5)`,
        [hashSecret(accessToken), tpp.id, pn, issuedAt, new Date(issuedAt.getTime() + 1_800_000)],
      );
    });

    const t = await createTestApp({ db });
    try {
      const dataSource = t.get(DataSource);
      const [{ n }] = await dataSource.query('SELECT count(*)::int AS n FROM migrations');
      expect(n).toBe(MIGRATIONS.length);
      expect((await rowCounts(dataSource, 'default')).account).toBe(1);
      const tpp = new Psd2Client(t, await certificate(['PSP_AI', 'PSP_PI'], organizationId));
      for (const prefix of ['', '/sandboxes/default']) {
        const user = await t.http.get(`${prefix}/admin/users/${pn}`).set({ Authorization: `Bearer ${ADMIN_KEY}` }).expect(200);
        expect(user.body).toMatchObject({ name: 'Previous Release', accounts: [expect.objectContaining({ account_number: accountNumber, balance: 123.45 })] });
        const accounts = await t.http.get(`${prefix}/v2/accounts`).set(bearer(tpp, accessToken)).expect(200);
        expect(accounts.body.accounts.map((a: { account_number: string }) => a.account_number)).toEqual([accountNumber]);
        await t.http.post(`${prefix}/api/auth/1.0/token`).set({ Authorization: `Bearer ${partnerKey}` }).type('form').send({ grant_type: 'client_credentials' }).expect(200);
      }
      expect((await tpp.nonAuthenticated(pn).expect(200)).body.expires_in).toBe(600);
      const created = await createSandbox(t, { seed_demo: false });
      await t.http.get(`/sandboxes/${created.sandbox_id}/admin/users/${pn}`).set({ Authorization: `Bearer ${created.admin_key}` }).expect(404);
      expect((await t.http.get(`/sandboxes/${created.sandbox_id}/v2/accounts`).set(bearer(tpp, accessToken))).status).toBe(401);
    } finally {
      await t.close();
      await db.drop();
    }
  });
});
