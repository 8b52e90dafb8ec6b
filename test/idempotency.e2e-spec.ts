import { Body, Controller, HttpCode, Module, Post } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { randomUUID } from 'node:crypto';
import request, { type Response } from 'supertest';
import { DataSource } from 'typeorm';
import { AdminOnly, Idempotent, JobRunner, JournalWriter } from '@app/common';
import { ParticipantService } from '@app/signing';
import { newPartner, sampleFixture } from './support/fixtures';
import { expectProblem, expectValidationFailed } from './support/problems';
import { bearer, certificate, newPsu, newUser, Psd2Client, PSU_IP } from './support/psd2';
import { describeOnServer } from './support/server-only';
import { createSandbox, rowCounts, sandboxView } from './support/sandboxes';
import { RecordingProcessModule } from './support/signing-process';
import { ADMIN_KEY, closeApps, createTestApp, recordStatements, type TestApp, twoInstances } from './support/test-app';

const TUESDAY = '2026-11-24T10:00:00+01:00';
const DAY_S = 86_400;
const operator = { Authorization: `Bearer ${ADMIN_KEY}` };
const newKey = (label = 'k') => `${label}-${randomUUID()}`;

/** A use case the test controls: fails while `failures` > 0, waits while `gate` is set (contract §15: a failing or running use case). */
const controlled = { failures: 0, runs: 0, gate: null as Promise<void> | null };

@ApiExcludeController()
@Controller('test-idempotency')
@AdminOnly()
class ControlledController {
  @Post()
  @HttpCode(201)
  @Idempotent()
  async run(@Body() body: { label?: string }): Promise<{ run: number; label?: string }> {
    controlled.runs++;
    const run = controlled.runs;
    if (controlled.gate) await controlled.gate;
    if (controlled.failures > 0) {
      controlled.failures--;
      throw new Error('the use case failed (test)');
    }
    return { run, label: body.label };
  }
}

@Module({ controllers: [ControlledController] })
class ControlledModule {}

const transferBody = (over: Record<string, unknown> = {}) => ({
  amount: 100.5,
  currency: 'SEK',
  transfer_date: '2026-11-30',
  recipient_account_number: '5050-1055',
  recipient_name: 'Anna Svensson',
  ...over,
});

const SHOWN_ONCE = ['api_key', 'admin_key', 'demo_partner_key'];

/** A body without the secrets shown once (contract §8, §13), at any depth; undefined when it has none. */
function withoutShownOnce(body: unknown): unknown {
  let removed = false;
  const strip = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(strip);
    if (!value || typeof value !== 'object') return value;
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).filter(([name]) => !(SHOWN_ONCE.includes(name) && (removed = true))).map(([name, inner]) => [name, strip(inner)]),
    );
  };
  const stripped = strip(body);
  return removed ? stripped : undefined;
}

/** What a replay must repeat (contract §15): status, body byte for byte (less the secrets shown once), the kept headers. */
function expectReplayOf(replay: Response, first: Response): void {
  expect(replay.status).toBe(first.status);
  const stripped = withoutShownOnce(first.body);
  expect(replay.text).toBe(stripped === undefined ? first.text : JSON.stringify(stripped));
  for (const header of ['content-type', 'location', 'retry-after', 'deprecation', 'sunset', 'link']) expect(replay.headers[header]).toBe(first.headers[header]);
  expect(replay.headers['idempotent-replayed']).toBe('true');
  expect(first.headers['idempotent-replayed']).toBeUndefined();
  expect(replay.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
  expect(replay.headers['sandbox-hints']).toBeUndefined();
}

/** Rows of the sandbox's data, without the journal (which records every request) and the records themselves. */
async function dataCounts(t: TestApp, sandboxId = 'default'): Promise<Record<string, number>> {
  const counts = await rowCounts(t.get(DataSource), sandboxId);
  delete counts.journal_entry;
  delete counts.idempotency_record;
  return counts;
}

describe('Idempotency-Key (contract §15)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ frozenAt: TUESDAY, imports: [ControlledModule, RecordingProcessModule] });
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.clock.freeze();
    controlled.failures = 0;
    controlled.gate = null;
  });

  /** Requests to the test-only route, which the OpenAPI document (and so the validating agent) does not know. */
  const raw = () => request(t.app.getHttpServer());

  /** A PSU with a PIS token, and its transfer creation with a key. */
  async function payer() {
    const psu = await newPsu(t);
    let token = await psu.token();
    const pis = `/psd2/savings/3.0/accounts/${psu.accounts[0]}`;
    const headers = (extra: Record<string, string | undefined> = {}) => bearer(psu.tpp, token, extra);
    return {
      psu,
      pis,
      headers,
      order: (key: string | undefined, body: object = transferBody(), path = `${pis}/transfers`) => t.http.post(path).set(headers({ 'Idempotency-Key': key })).send(body),
      renew: async () => {
        token = await psu.token();
      },
    };
  }

  describe('replay', () => {
    it('contract §15: a retried transfer creation answers the first answer again, body byte for byte, with Idempotent-Replayed: true and a fresh X-Request-Id, and creates nothing', async () => {
      const p = await payer();
      const key = newKey();
      const first = await p.order(key).expect(201);
      const before = await dataCounts(t);
      const replay = await p.order(key);
      expectReplayOf(replay, first);
      expect(await dataCounts(t)).toEqual(before);
      // A third time, still the same transfer.
      expect((await p.order(key)).text).toBe(first.text);
    });

    it('contract §15: the body is compared after parsing: key order and whitespace do not matter', async () => {
      const p = await payer();
      const key = newKey();
      const first = await p.order(key).expect(201);
      const body = transferBody();
      const reordered = `{ "recipient_name" : "${body.recipient_name}",\n  "transfer_date": "${body.transfer_date}", "recipient_account_number": "${body.recipient_account_number}", "currency": "SEK", "amount": 100.5 }`;
      const replay = await t.http.post(`${p.pis}/transfers`).set(p.headers({ 'Idempotency-Key': key, 'Content-Type': 'application/json' })).send(reordered);
      expectReplayOf(replay, first);
    });

    it('contract §15, §2: an optional field sent as null is the same body as without it: replayed, not 422', async () => {
      const p = await payer();
      const key = newKey();
      const first = await p.order(key).expect(201);
      const withNull = { ...transferBody(), statement: null };
      const replay = await t.http.post(`${p.pis}/transfers`).set(p.headers({ 'Idempotency-Key': key })).send(withNull);
      expectReplayOf(replay, first);
    });

    it('contract §15: without the header everything behaves as before, and no statement touches the idempotency records', async () => {
      const p = await payer();
      const statements = recordStatements(t);
      const one = await p.order(undefined).expect(201);
      const two = await p.order(undefined).expect(201);
      expect(one.body.reference_id).not.toBe(two.body.reference_id);
      expect(statements.filter((sql) => /idempotency_record/.test(sql))).toEqual([]);
      statements.length = 0;
      const key = newKey();
      await p.order(key).expect(201);
      // A first request: the claim and the completion.
      expect(statements.filter((sql) => /idempotency_record/.test(sql))).toHaveLength(2);
      statements.length = 0;
      await p.order(key).expect(201);
      // A replay: one statement, and nothing else of the route runs.
      expect(statements.filter((sql) => /idempotency_record/.test(sql))).toHaveLength(1);
    });

    it('contract §15: a kept 404 is replayed too (an account that is not the user\'s)', async () => {
      const p = await payer();
      const other = await newPsu(t);
      const key = newKey();
      const path = `/psd2/savings/3.0/accounts/${other.accounts[0]}/transfers`;
      const first = await p.order(key, transferBody(), path);
      expectProblem(first, 404, 'NOT_FOUND');
      expectReplayOf(await p.order(key, transferBody(), path), first);
    });
  });

  describe('422 IDEMPOTENCY_KEY_REUSED', () => {
    it('contract §15: the same key with another body, path or X-Sandbox-User is 422 IDEMPOTENCY_KEY_REUSED and runs nothing', async () => {
      const p = await payer();
      const key = newKey();
      await p.order(key).expect(201);
      const before = await dataCounts(t);
      expectProblem(await p.order(key, transferBody({ amount: 100.51 })), 422, 'IDEMPOTENCY_KEY_REUSED');
      expectProblem(await p.order(key, transferBody({ frequency: 'MONTHLY' }), `${p.pis}/recurring-transfers`), 422, 'IDEMPOTENCY_KEY_REUSED');
      // The path as sent: the same route under the default sandbox's explicit prefix is another path.
      expectProblem(await p.order(key, transferBody(), `/sandboxes/default${p.pis}/transfers`), 422, 'IDEMPOTENCY_KEY_REUSED');
      const otherUser = await t.http.post(`${p.pis}/transfers`).set(p.headers({ 'Idempotency-Key': key, 'X-Sandbox-User': p.psu.user })).send(transferBody());
      expectProblem(otherUser, 422, 'IDEMPOTENCY_KEY_REUSED');
      expect(await dataCounts(t)).toEqual(before);
      // The 422 was not kept: the first request's answer is still what a true retry gets.
      expect((await p.order(key)).headers['idempotent-replayed']).toBe('true');
    });

    it('contract §1, §15: the key is looked at after the input validation: a malformed body with a used key is 400, not 422', async () => {
      const p = await payer();
      const key = newKey();
      await p.order(key).expect(201);
      const statements = recordStatements(t);
      expectValidationFailed(await p.order(key, transferBody({ amount: 'many' })), 'amount');
      expectValidationFailed(await p.order(key, transferBody({ unknown_field: 1 })), 'unknown_field');
      // Rules of the value alone are input too: a non-positive amount, a date no calendar has.
      expectValidationFailed(await p.order(key, transferBody({ amount: 0 })), 'amount');
      expectValidationFailed(await p.order(key, transferBody({ transfer_date: '2026-02-30' })), 'transfer_date');
      expect(statements.filter((sql) => /idempotency_record/.test(sql))).toEqual([]);
    });
  });

  describe('what is not kept', () => {
    it('contract §15: a 400 is not kept: the fixed request with the same key runs', async () => {
      const p = await payer();
      const key = newKey();
      expectValidationFailed(await p.order(key, transferBody({ amount: 'many' })), 'amount');
      const fixed = await p.order(key).expect(201);
      expect(fixed.headers['idempotent-replayed']).toBeUndefined();
      expect((await p.order(key)).text).toBe(fixed.text);
    });

    it('contract §15: a 401 is not kept (the key is looked at after the credentials): the same key with credentials runs', async () => {
      const p = await payer();
      const key = newKey();
      const refused = await t.http.post(`${p.pis}/transfers`).set({ ...p.headers({ 'Idempotency-Key': key }), Authorization: 'Bearer not-a-token' }).send(transferBody());
      expectProblem(refused, 401, 'UNAUTHORIZED');
      const created = await p.order(key).expect(201);
      expect(created.headers['idempotent-replayed']).toBeUndefined();
    });

    it('contract §15: a use case that fails (500) leaves the key reusable: the retry runs it again', async () => {
      const key = newKey();
      controlled.failures = 1;
      const failed = await raw().post('/test-idempotency').set({ ...operator, 'Idempotency-Key': key }).send({ label: 'a' });
      expectProblem(failed, 500, 'INTERNAL_ERROR');
      const runs = controlled.runs;
      const retried = await raw().post('/test-idempotency').set({ ...operator, 'Idempotency-Key': key }).send({ label: 'a' }).expect(201);
      expect(retried.body).toEqual({ run: runs + 1, label: 'a' });
      expect(retried.headers['idempotent-replayed']).toBeUndefined();
      const replay = await raw().post('/test-idempotency').set({ ...operator, 'Idempotency-Key': key }).send({ label: 'a' });
      expectReplayOf(replay, retried);
      expect(controlled.runs).toBe(runs + 1);
    });
  });

  describe('409 IDEMPOTENCY_KEY_IN_USE and the claim lease', () => {
    it('contract §15: a duplicate while the first still runs is 409 IDEMPOTENCY_KEY_IN_USE; a claim whose lease ran out (a crashed instance) is taken over', async () => {
      const key = newKey();
      let open!: () => void;
      controlled.gate = new Promise((resolve) => (open = resolve));
      const send = () => raw().post('/test-idempotency').set({ ...operator, 'Idempotency-Key': key }).send({ label: 'slow' });
      const runs = controlled.runs;
      const first = send().then((res) => res);
      try {
        // Wait until the first has claimed the key and runs.
        for (let i = 0; i < 400 && controlled.runs === runs; i++) await new Promise((resolve) => setTimeout(resolve, 5));
        expect(controlled.runs).toBe(runs + 1);
        expectProblem(await send(), 409, 'IDEMPOTENCY_KEY_IN_USE');
        // As if the first's instance crashed: its lease runs out, and a retry takes the key over and runs.
        await t.get(DataSource).query(`UPDATE idempotency_record SET leased_until = now() - interval '1 second' WHERE answer IS NULL AND sandbox_id = 'default'`);
        controlled.gate = null;
        const takeover = await send().expect(201);
        expect(takeover.body.run).toBe(runs + 2);
        open();
        // The first finishes late: its answer does not replace the one that took the key over.
        expect((await first).body.run).toBe(runs + 1);
        expectReplayOf(await send(), takeover);
      } finally {
        open();
        await first;
      }
    });
  });

  describe('header values', () => {
    it('contract §15: an Idempotency-Key that is empty, over 255 characters or not visible ASCII is 400 VALIDATION_FAILED naming Idempotency-Key; 255 is fine', async () => {
      const p = await payer();
      const before = await dataCounts(t);
      for (const bad of ['', 'x'.repeat(256), 'nøkkel', 'two words']) {
        expectValidationFailed(await p.order(bad), 'Idempotency-Key');
      }
      expect(await dataCounts(t)).toEqual(before);
      await p.order('x'.repeat(255)).expect(201);
    });
  });

  describe('expiry', () => {
    it('contract §15, §6: an answer is kept for 24 hours of the sandbox clock: replayed a millisecond before, run again at exactly 24 hours', async () => {
      const p = await payer();
      const key = newKey();
      const first = await p.order(key).expect(201);
      await t.clock.advance(DAY_S - 60);
      await p.renew();
      await t.clock.advance(60 - 0.001);
      expect((await p.order(key)).text).toBe(first.text);
      await t.clock.advance(0.001);
      await p.renew();
      const again = await p.order(key).expect(201);
      expect(again.headers['idempotent-replayed']).toBeUndefined();
      expect(again.body.reference_id).not.toBe(first.body.reference_id);
    });

    it('contract §15: the expiry job removes the records past their 24 hours, on each sandbox\'s own clock', async () => {
      const sandbox = await createSandbox(t, { seed_demo: false, clock: { now: TUESDAY, frozen: true } });
      const view = sandboxView(t, sandbox);
      const count = async (sandboxId: string) => Number((await t.get(DataSource).query(`SELECT count(*) AS n FROM idempotency_record WHERE sandbox_id = $1`, [sandboxId]))[0].n);
      await view.admin.post('/admin/partners', { name: 'Expiring AB' }).set({ 'Idempotency-Key': newKey() }).expect(201);
      await t.admin.post('/admin/partners', { name: 'Staying AB' }).set({ 'Idempotency-Key': newKey() }).expect(201);
      const inDefault = await count('default');
      expect(await count(sandbox.sandbox_id)).toBe(1);
      await t.get(JobRunner).tick();
      expect(await count(sandbox.sandbox_id)).toBe(1);
      // A day later on the sandbox's clock only (exactly: a millisecond before it stays): its record goes, the default sandbox's stay.
      await view.clock.advance(DAY_S - 0.001);
      await t.get(JobRunner).tick();
      expect(await count(sandbox.sandbox_id)).toBe(1);
      await view.clock.advance(0.001);
      await t.get(JobRunner).tick();
      expect(await count(sandbox.sandbox_id)).toBe(0);
      expect(await count('default')).toBe(inDefault);
    });
  });

  describe('what is stored', () => {
    it('contract §15: the stored record holds neither the key nor the answer in clear, and is found by a hash', async () => {
      const p = await payer();
      const key = newKey('clear');
      const first = await p.order(key).expect(201);
      const rows: Array<{ row: string }> = await t.get(DataSource).query(`SELECT r::text AS row FROM idempotency_record r WHERE sandbox_id = 'default'`);
      const dump = rows.map((r) => r.row).join('\n');
      expect(dump).not.toContain(key);
      expect(dump).not.toContain(first.body.reference_id);
      expect(dump).not.toContain(Buffer.from(first.body.reference_id).toString('hex'));
      expect(dump).not.toContain(Buffer.from(key).toString('hex'));
    });

    it('contract §15, §8: a partner\'s api_key shown once is not kept: the replay is the same answer without it', async () => {
      const key = newKey();
      const first = await t.admin.post('/admin/partners', { name: 'Idempotent AB' }).set({ 'Idempotency-Key': key }).expect(201);
      expect(first.body.api_key).toEqual(expect.any(String));
      const before = await dataCounts(t);
      const replay = await t.admin.post('/admin/partners', { name: 'Idempotent AB' }).set({ 'Idempotency-Key': key }).expect(201);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(replay.body).toEqual({ partner_id: first.body.partner_id, name: first.body.name });
      expect(await dataCounts(t)).toEqual(before);
      const dump: Array<{ row: string }> = await t.get(DataSource).query(`SELECT r::text AS row FROM idempotency_record r`);
      expect(dump.map((r) => r.row).join('\n')).not.toContain(first.body.api_key);
    });
  });

  describe('callers', () => {
    it('contract §15: the same key from two TPPs is two keys: each runs its own transfer', async () => {
      const a = await payer();
      const b = await payer();
      const key = newKey('shared');
      const one = await a.order(key).expect(201);
      const two = await b.order(key).expect(201);
      expect(two.headers['idempotent-replayed']).toBeUndefined();
      expect(two.body.reference_id).not.toBe(one.body.reference_id);
    });

    it('contract §15: the same key from two partners is two keys', async () => {
      const applicants = [{ personal_number: await newUser(t), yearly_income: 1_000_000 }];
      const key = newKey('shared');
      const ids: string[] = [];
      for (const partner of [await newPartner(t), await newPartner(t)]) {
        const res = await t.http.post('/mortgage/2.0/pre-approval').set({ Authorization: `Bearer ${partner.api_key}`, 'Idempotency-Key': key }).send({ applicants, loan_amount: 1_000_000 }).expect(201);
        expect(res.headers['idempotent-replayed']).toBeUndefined();
        ids.push(res.body.id);
      }
      expect(ids[0]).not.toBe(ids[1]);
    });
  });

  describe('journal', () => {
    it('contract §14, §15: the replay\'s journal entry says "replayed": true, with no hints', async () => {
      const p = await payer();
      const key = newKey();
      await p.order(key).expect(201);
      const requestId = `replay-${randomUUID()}`;
      const replay = await t.http.post(`${p.pis}/transfers`).set(p.headers({ 'Idempotency-Key': key, 'X-Request-Id': requestId })).send(transferBody());
      expect(replay.headers['idempotent-replayed']).toBe('true');
      await t.app.get(JournalWriter).flush();
      const entry = (await t.admin.get(`/admin/requests/${requestId}`).expect(200)).body;
      expect(entry).toMatchObject({ status: 201, replayed: true, hints: [] });
    });
  });

  describe('every route of contract §15 replays, and the replay creates nothing', () => {
    /** Sends `request` twice with one key: the second is the first's replay and changes no row of the sandbox. */
    async function expectIdempotent(send: (key: string) => Promise<Response>, expectedStatus: number, sandboxId = 'default'): Promise<Response> {
      const key = newKey();
      const first = await send(key);
      expect(first.status).toBe(expectedStatus);
      const before = await dataCounts(t, sandboxId);
      const replay = await send(key);
      expectReplayOf(replay, first);
      expect(await dataCounts(t, sandboxId)).toEqual(before);
      return first;
    }

    it('contract §15: transfers and recurring transfers: 3.0, the 2.0 alias and v3', async () => {
      const p = await payer();
      await expectIdempotent((key) => p.order(key), 201);
      await expectIdempotent((key) => p.order(key, transferBody({ frequency: 'MONTHLY' }), `${p.pis}/recurring-transfers`), 201);
      const v3 = bearer(p.psu.tpp, await p.psu.token('non_authenticated', 'PIS'));
      await expectIdempotent((key) => t.http.post(`/v3/accounts/${p.psu.accounts[0]}/transfers`).set({ ...v3, 'Idempotency-Key': key }).send(transferBody()), 201);
      // The 2.0 aliases, before their end (contract §12): a replay repeats their Deprecation, Sunset and Link too.
      await t.clock.freeze('2024-03-12T10:00:00+01:00');
      await p.renew();
      const old = { transfer_date: '2024-03-20' };
      const alias = await expectIdempotent((key) => p.order(key, transferBody(old), p.pis.replace('/3.0/', '/2.0/') + '/transfers'), 201);
      expect(alias.headers.sunset).toEqual(expect.any(String));
      await expectIdempotent((key) => p.order(key, transferBody({ ...old, frequency: 'MONTHLY' }), p.pis.replace('/3.0/', '/2.0/') + '/recurring-transfers'), 201);
    });

    it('contract §15: transfer signing start', async () => {
      const p = await payer();
      const { reference_id } = (await p.order(undefined).expect(201)).body;
      const first = await expectIdempotent((key) => t.http.post('/psd2/savings/3.0/transfers/signing/start').set(p.headers({ 'Idempotency-Key': key })).send({ reference_ids: [reference_id] }), 200);
      expect(first.body.signing_id).toEqual(expect.any(String));
    });

    it('contract §15: PSD2 authenticate and authorize (a replayed pending code is the first one)', async () => {
      const tpp = new Psd2Client(t, await certificate());
      const user = await newUser(t);
      for (const flow of ['authenticate', 'authorize'] as const) {
        const first = await expectIdempotent(
          (key) => tpp.start({ flow, user, headers: { 'Idempotency-Key': key } }),
          200,
        );
        expect(first.body.pending_code).toEqual(expect.any(String));
      }
    });

    it('contract §15: partner signing start and start/phone', async () => {
      const partner = await newPartner(t);
      const auth = { Authorization: `Bearer ${partner.api_key}` };
      for (const [path, extra] of [['start', {}], ['start/phone', { call_initiator: 'RP' }]] as const) {
        const user = await newUser(t, { eid: 'MANUAL' });
        const [participant] = await t.get(ParticipantService).register({ kind: 'test_process', id: randomUUID(), partnerId: partner.partner_id }, [user]);
        await expectIdempotent(
          (key) => t.http.post(`/signing/1.0/${path}`).set({ ...auth, 'Idempotency-Key': key }).send({ participant_id: participant.id, ...extra }),
          path === 'start' ? 200 : 204,
        );
      }
    });

    it('contract §15: pre-approval creation and acceptance, and a kept 409 replayed', async () => {
      const partner = await newPartner(t);
      const auth = { Authorization: `Bearer ${partner.api_key}` };
      const applicants = [{ personal_number: await newUser(t), yearly_income: 1_000_000 }];
      const created = await expectIdempotent((key) => t.http.post('/mortgage/2.0/pre-approval').set({ ...auth, 'Idempotency-Key': key }).send({ applicants, loan_amount: 1_000_000 }), 201);
      const accept = (key: string) => t.http.post(`/mortgage/2.0/pre-approval/${created.body.id}/acceptance`).set({ ...auth, 'Idempotency-Key': key }).send({ with_unsecured_loan: false });
      await expectIdempotent(accept, 200);
      // Accepted already: the 409 is kept and replayed to its key.
      const conflict = await expectIdempotent(accept, 409);
      expectProblem(conflict, 409, 'INVALID_STATE');
    });

    it('contract §15: loan-application creation', async () => {
      const partner = await newPartner(t);
      const auth = { Authorization: `Bearer ${partner.api_key}` };
      const applicants = [{ personal_number: await newUser(t), yearly_income: 700_000 }];
      await expectIdempotent((key) => t.http.post('/api/loan-application/2.0/mortgages').set({ ...auth, 'Idempotency-Key': key }).send({ applicants, loan_amount: 1_000_000 }), 201);
    });

    it('contract §15: the admin creations: a user\'s account, a partner, the seed', async () => {
      const user = await newUser(t, { accounts: 0 });
      await expectIdempotent((key) => t.admin.post(`/admin/users/${user}/accounts`, { name: 'Spar', currency: 'SEK', balance: 10 }).set({ 'Idempotency-Key': key }), 201);
      await expectIdempotent((key) => t.admin.post('/admin/partners', { name: 'Partner AB' }).set({ 'Idempotency-Key': key }), 201);
      const { fixture } = sampleFixture();
      await expectIdempotent((key) => t.admin.post('/admin/seed', fixture).set({ 'Idempotency-Key': key }), 200);
    });

    it('contract §15: a retried clock advance moves the clock once', async () => {
      const key = newKey();
      const first = await t.admin.post('/admin/clock/advance', { seconds: 3600 }).set({ 'Idempotency-Key': key }).expect(200);
      const replay = await t.admin.post('/admin/clock/advance', { seconds: 3600 }).set({ 'Idempotency-Key': key });
      expectReplayOf(replay, first);
      expect(await t.clock.now()).toBe(first.body.now);
    });

    it('contract §15, §13: POST /sandboxes: one sandbox, the replay without admin_key and demo_partner_key; its records belong to the service and block no deletion', async () => {
      const count = async () => Number((await t.get(DataSource).query(`SELECT count(*) AS n FROM sandbox`))[0].n);
      const key = newKey();
      const send = () => t.http.post('/sandboxes').set({ ...operator, 'Idempotency-Key': key }).send({ name: 'idempotent' });
      const first = await send().expect(201);
      expect(first.body.admin_key).toEqual(expect.any(String));
      expect(first.body.demo_partner_key).toEqual(expect.any(String));
      const sandboxes = await count();
      const replay = await send().expect(201);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(replay.body).toEqual(withoutShownOnce(first.body));
      expect(Object.keys(replay.body).sort()).toEqual(['base_url', 'created_at', 'last_used_at', 'name', 'sandbox_id']);
      expect(await count()).toBe(sandboxes);
      const service: Array<{ n: string }> = await t.get(DataSource).query(`SELECT count(*) AS n FROM idempotency_record WHERE sandbox_id IS NULL`);
      expect(Number(service[0].n)).toBeGreaterThan(0);

      // Inside the new sandbox its admin key is another caller; deleting it takes its records and leaves the service's.
      const view = sandboxView(t, first.body);
      await view.admin.post('/admin/partners', { name: 'In sandbox AB' }).set({ 'Idempotency-Key': key }).expect(201);
      const own = async () => Number((await t.get(DataSource).query(`SELECT count(*) AS n FROM idempotency_record WHERE sandbox_id = $1`, [first.body.sandbox_id]))[0].n);
      expect(await own()).toBe(1);
      await t.http.delete(`/sandboxes/${first.body.sandbox_id}`).set(operator).expect(204);
      expect(await own()).toBe(0);
      const after: Array<{ n: string }> = await t.get(DataSource).query(`SELECT count(*) AS n FROM idempotency_record WHERE sandbox_id IS NULL`);
      expect(Number(after[0].n)).toBe(Number(service[0].n));
    });

    it('contract §15, §13: the same key in two sandboxes is two keys', async () => {
      const sandbox = await createSandbox(t, { seed_demo: false });
      const view = sandboxView(t, sandbox);
      const key = newKey();
      const root = await t.admin.post('/admin/partners', { name: 'Root AB' }).set({ 'Idempotency-Key': key }).expect(201);
      const inside = await view.admin.post('/admin/partners', { name: 'Root AB' }).set({ 'Idempotency-Key': key }).expect(201);
      expect(inside.headers['idempotent-replayed']).toBeUndefined();
      expect(inside.body.partner_id).not.toBe(root.body.partner_id);
    });
  });

  describe('concurrency (one instance)', () => {
    it('contract §15: 20 simultaneous identical transfer requests with one key create exactly one transfer; the others replay it or answer 409 IDEMPOTENCY_KEY_IN_USE; none 5xx', async () => {
      const p = await payer();
      const key = newKey();
      const [{ n: before }] = await t.get(DataSource).query(`SELECT count(*)::int AS n FROM transfer WHERE sandbox_id = 'default'`);
      const answers = await Promise.all(Array.from({ length: 20 }, () => p.order(key)));
      const [{ n: after }] = await t.get(DataSource).query(`SELECT count(*)::int AS n FROM transfer WHERE sandbox_id = 'default'`);
      expect(after - before).toBe(1);
      const created = answers.filter((res) => res.status === 201);
      expect(created.length).toBeGreaterThanOrEqual(1);
      expect(new Set(created.map((res) => res.body.reference_id)).size).toBe(1);
      for (const res of answers.filter((r) => r.status !== 201)) expectProblem(res, 409, 'IDEMPOTENCY_KEY_IN_USE');
      expect(answers.filter((res) => res.status === 201 && res.headers['idempotent-replayed'] !== 'true')).toHaveLength(1);
    });
  });
});

describe('Idempotency-Key on POST /sandboxes in self-service (contract §13, §15)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { SANDBOX_SELF_SERVICE: 'on', TRUST_PROXY: 'on' }, keepClock: true });
  });
  afterAll(() => t.close());

  const counts = async () => {
    const [row] = await t.get(DataSource).query(`SELECT (SELECT count(*)::int FROM sandbox) AS sandboxes, (SELECT count(*)::int FROM sandbox_creation) AS creations`);
    return row as { sandboxes: number; creations: number };
  };
  const create = (key: string, ip: string) => t.http.post('/sandboxes').set({ 'Idempotency-Key': key, 'X-Forwarded-For': ip }).send({ name: 'ci run', seed_demo: false });

  it('contract §15: the caller is the IP: a retry from it replays (no second sandbox, no second count against its hourly limit); the same key from another IP is another key', async () => {
    const key = newKey();
    const first = await create(key, '203.0.113.20').expect(201);
    const before = await counts();
    const replay = await create(key, '203.0.113.20').expect(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body.sandbox_id).toBe(first.body.sandbox_id);
    expect(replay.body.admin_key).toBeUndefined();
    expect(await counts()).toEqual(before);
    const other = await create(key, '203.0.113.21').expect(201);
    expect(other.headers['idempotent-replayed']).toBeUndefined();
    expect(other.body.sandbox_id).not.toBe(first.body.sandbox_id);
    // The operator key is a caller of its own too.
    const operated = await t.http.post('/sandboxes').set({ ...operator, 'Idempotency-Key': key }).send({ name: 'ci run', seed_demo: false }).expect(201);
    expect(operated.headers['idempotent-replayed']).toBeUndefined();
  });
});

describeOnServer('Idempotency-Key across two instances on the PostgreSQL server (contract §1, §15)', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    [a, b] = await twoInstances({ frozenAt: TUESDAY });
  });
  afterAll(() => closeApps(a, b));

  it('contract §15: 20 simultaneous identical transfer requests with one key, over two instances, create exactly one transfer; the others replay or answer 409; none 5xx', async () => {
    const psu = await newPsu(a);
    const token = await psu.token();
    const path = `/psd2/savings/3.0/accounts/${psu.accounts[0]}/transfers`;
    const key = newKey();
    const headers = bearer(psu.tpp, token, { 'Idempotency-Key': key, 'PSU-IP-Address': PSU_IP });
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).http.post(path).set(headers).send(transferBody())));
    const [{ n }] = await a.get(DataSource).query(`SELECT count(*)::int AS n FROM transfer WHERE sandbox_id = 'default' AND account_number = $1`, [psu.accounts[0]]);
    expect(n).toBe(1);
    expect(answers.filter((res) => res.status >= 500)).toEqual([]);
    const created = answers.filter((res) => res.status === 201);
    expect(new Set(created.map((res) => res.body.reference_id)).size).toBe(1);
    for (const res of answers.filter((r) => r.status !== 201)) expectProblem(res, 409, 'IDEMPOTENCY_KEY_IN_USE');
  });
});
