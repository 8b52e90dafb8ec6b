import { ArgumentsHost, Body, CallHandler, CanActivate, Catch, Controller, ExceptionFilter, ExecutionContext, Module, NestInterceptor, Post, UseFilters, UseGuards, UseInterceptors } from '@nestjs/common';
import type { Response } from 'express';
import { tap } from 'rxjs';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { type PersonalNumber, Public, SandboxClock, SandboxContext, SandboxDb, UnscopedStatement } from '@app/common';
import { PartnerService, TppRegistry, UserService } from '@app/directory';
import { AccountService } from '@app/savings';
import { newPartner, sampleFixture } from './support/fixtures';
import { newPersonalNumber } from './support/personal-numbers';
import { bearer, newPsu, newUser } from './support/psd2';
import { createTestApp, TestApp } from './support/test-app';

/** The tables that hold no sandbox's data: the service's own. */
const SERVICE_TABLES = ['job_lease', 'migrations', 'sandbox'];

/** Every table that carries sandbox_id, from the schema itself. */
async function sandboxTables(dataSource: DataSource): Promise<string[]> {
  const rows: Array<{ table_name: string }> = await dataSource.query(
    // Tables only: a view (sandbox_now) shows rows it does not hold.
    `SELECT c.table_name FROM information_schema.columns c JOIN information_schema.tables t USING (table_schema, table_name)
      WHERE c.table_schema = current_schema() AND c.column_name = 'sandbox_id' AND t.table_type = 'BASE TABLE' ORDER BY c.table_name`,
  );
  return rows.map((row) => row.table_name);
}

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
  const statements: string[] = [];
  beforeAll(async () => {
    t = await createTestApp();
    namesASandboxTable = new RegExp(`\\b(${(await sandboxTables(t.get(DataSource))).join('|')})\\b`, 'i');
    const { logger } = t.get(DataSource);
    const logQuery = logger.logQuery.bind(logger);
    // TypeORM hands every statement it sends to its logger, whoever built it (SandboxDb or TypeORM).
    logger.logQuery = (query, parameters, runner) => {
      statements.push(query);
      logQuery(query, parameters, runner);
    };
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

  it('keeps users, accounts and partners through down and up of the sandbox migration, and serves them at the root', async () => {
    const psu = await newPsu(t);
    const { api_key } = await newPartner(t);
    const dataSource = t.get(DataSource);
    await dataSource.undoLastMigration({ transaction: 'each' });
    const [{ n }] = await dataSource.query('SELECT count(*)::int AS n FROM account WHERE account_number = $1', [psu.accounts[0]]);
    expect(n).toBe(1);

    await dataSource.runMigrations({ transaction: 'each' });
    const [row] = await dataSource.query('SELECT sandbox_id FROM account WHERE account_number = $1', [psu.accounts[0]]);
    expect(row.sandbox_id).toBe('default');
    const res = await t.http.get('/v2/accounts').set(bearer(psu.tpp, await psu.token())).expect(200);
    expect(res.body.accounts.map((a: { account_number: string }) => a.account_number)).toEqual(psu.accounts);
    await t.http.post('/api/auth/1.0/token').set({ Authorization: `Bearer ${api_key}` }).type('form').send({ grant_type: 'client_credentials' }).expect(200);
  });
});
