import { DataSource } from 'typeorm';
import { TransferExecutionService } from '@app/savings';
import { expectProblem, expectValidationFailed } from './support/problems';
import { bearer, certificate, newPsu, Psd2Client } from './support/psd2';
import { describeOnServer } from './support/server-only';
import { closeApps, createTestApp, TestApp, twoInstances } from './support/test-app';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const TUESDAY = '2026-11-24T10:00:00+01:00';
const BANKGIRO = '5050-1055';

describe('PIS 3.0 and v3 (bank §2.7, §4.2, §4.3; contract §5, §10)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ frozenAt: TUESDAY });
  });
  afterAll(() => t.close());
  beforeEach(() => t.clock.freeze());

  const runJobs = () => t.admin.post('/admin/jobs/run').expect(200);
  const body = (over: Record<string, unknown> = {}) => ({
    amount: 100.5,
    currency: 'SEK',
    transfer_date: '2026-11-25',
    recipient_account_number: BANKGIRO,
    recipient_name: 'Anna Svensson',
    ...over,
  });

  /** A PSU, its PIS token, and helpers bound to them. */
  async function payer(options: Parameters<typeof newPsu>[1] = {}) {
    const psu = await newPsu(t, options);
    let token = await psu.token();
    const account = psu.accounts[0];
    const headers = (extra: Record<string, string | undefined> = {}) => bearer(psu.tpp, token, extra);
    const pis = `/psd2/savings/3.0/accounts/${account}`;
    return {
      psu,
      token,
      account,
      headers,
      order: (over: Record<string, unknown> = {}, path = `${pis}/transfers`) => t.http.post(path).set(headers()).send(body(over)),
      orderRecurring: (over: Record<string, unknown> = {}) => t.http.post(`${pis}/recurring-transfers`).set(headers()).send(body({ frequency: 'MONTHLY', ...over })),
      status: (ref: string) => t.http.get(`${pis}/transfers/${ref}/status`).set(headers()),
      recurringStatus: (ref: string) => t.http.get(`${pis}/recurring-transfers/${ref}/status`).set(headers()),
      remove: (ref: string) => t.http.delete(`${pis}/transfers/${ref}`).set(headers()),
      removeRecurring: (ref: string) => t.http.delete(`${pis}/recurring-transfers/${ref}`).set(headers()),
      startSigning: (ids: string[], extra: Record<string, string | undefined> = {}) =>
        t.http.post('/psd2/savings/3.0/transfers/signing/start').set(headers(extra)).send({ reference_ids: ids }),
      collect: (signingId: string, extra: Record<string, string | undefined> = {}) =>
        t.http.post('/psd2/savings/3.0/transfers/signing/collect').set(headers(extra)).send({ signing_id: signingId }),
      signBankId: (signingId: string) => t.http.put(`/psd2/savings/3.0/transfers/sign-bankid/${signingId}`).set(headers()),
      balance: async () => (await t.admin.get(`/admin/users/${psu.user}`).expect(200)).body.accounts[0] as { balance: number; available_balance: number },
      /** A fresh token: moving the clock by hours expires the 30-minute one (bank §5.5). */
      renew: async () => {
        token = await psu.token();
      },
    };
  }
  type Payer = Awaited<ReturnType<typeof payer>>;

  /** Orders and signs (AUTO_COMPLETE user: start + one collect). */
  async function signedTransfer(p: Payer, over: Record<string, unknown> = {}): Promise<string> {
    const ref = (await p.order(over).expect(201)).body.reference_id;
    const signing = (await p.startSigning([ref]).expect(200)).body.signing_id;
    expect((await p.collect(signing).expect(200)).body).toEqual({ status: 'COMPLETE' });
    return ref;
  }

  describe('ordering a transfer', () => {
    it('answers 201 { reference_id (UUID), status AWAITING_SIGNATURE } (contract §10)', async () => {
      const p = await payer();
      const res = await p.order().expect(201);
      expect(res.body).toEqual({ reference_id: expect.stringMatching(UUID), status: 'AWAITING_SIGNATURE' });
      expect((await p.status(res.body.reference_id).expect(200)).body).toEqual({ reference_id: res.body.reference_id, status: 'AWAITING_SIGNATURE' });
    });

    it('accepts a recipient account number or a bankgiro number NNN-NNNN / NNNN-NNNN (contract §10)', async () => {
      const p = await payer();
      await p.order({ recipient_account_number: '92501234567' }).expect(201);
      await p.order({ recipient_account_number: '123-4566' }).expect(201);
      expectValidationFailed(await p.order({ recipient_account_number: '5050-1056' }), 'recipient_account_number');
      expectValidationFailed(await p.order({ recipient_account_number: 'SE45 5000' }), 'recipient_account_number');
    });

    it.each([
      [{ amount: 0 }, 'amount'],
      [{ amount: -5 }, 'amount'],
      [{ amount: 1.005 }, 'amount'],
      [{ amount: '100.50' }, 'amount'],
      [{ currency: 'EUR' }, 'currency'],
      [{ currency: 'sek' }, 'currency'],
      [{ transfer_date: '2026-11-23' }, 'transfer_date'],
      [{ transfer_date: '2026-02-30' }, 'transfer_date'],
      [{ transfer_date: '25/11/2026' }, 'transfer_date'],
      [{ recipient_name: undefined }, 'recipient_name'],
      [{ recipient_name: 'x'.repeat(141) }, 'recipient_name'],
      [{ counter_part_statement: 'x'.repeat(141) }, 'counter_part_statement'],
      [{ statement: 'x'.repeat(31) }, 'statement'],
      [{ statement: 'hyra 🏠' }, 'statement'],
      [{ recipient_name: 'Łukasz' }, 'recipient_name'],
      [{ sign_options_data: { x: 1 } }, 'sign_options_data'],
      [{ favourite: 1 }, 'favourite'],
    ])('refuses %p with 400 naming %s, and writes nothing (bank §2.7, contract §10)', async (over, field) => {
      const p = await payer();
      expectValidationFailed(await p.order(over), field);
      expect((await t.http.get(`/v2/accounts/${p.account}/transfers`).set(p.headers()).expect(200)).body.transfers).toEqual([]);
    });

    /** The body as JSON text with `amount` written as given: a JS number literal would already be rounded. */
    const rawBody = (amount: string) => JSON.stringify(body()).replace('"amount":100.5', `"amount":${amount}`);

    it('refuses an amount above 10 000 000 000 000 with 400 naming amount on 3.0, v3 and recurring, rather than storing another amount (contract §10)', async () => {
      const p = await payer();
      const nonAuth = await p.psu.token('non_authenticated');
      const paths = [
        { path: `/psd2/savings/3.0/accounts/${p.account}/transfers`, headers: p.headers(), extra: '' },
        { path: `/v3/accounts/${p.account}/transfers`, headers: bearer(p.psu.tpp, nonAuth), extra: '' },
        { path: `/psd2/savings/3.0/accounts/${p.account}/recurring-transfers`, headers: p.headers(), extra: ',"frequency":"MONTHLY"' },
      ];
      // 99999999999999.99 reads as the double 99999999999999.98, 999999999999999.99 as 1e15.
      for (const amount of ['99999999999999.99', '999999999999999.99', '10000000000000.01', '1e14']) {
        for (const { path, headers, extra } of paths) {
          const sent = rawBody(amount).replace(/}$/, `${extra}}`);
          const res = await t.http.post(path).set({ ...headers, 'Content-Type': 'application/json' }).send(sent);
          expectValidationFailed(res, 'amount');
          expect(res.body.reason.message).toContain('10000000000000');
        }
      }
      expect((await t.http.get(`/v2/accounts/${p.account}/transfers`).set(p.headers()).expect(200)).body.transfers).toEqual([]);
      expect((await t.http.get('/psd2/savings/3.0/accounts/recurring-transfers').set(p.headers()).expect(200)).body.recurring_transfers).toEqual([]);
    });

    it('keeps the largest amounts exactly as written: 9999999999999.99 and 10000000000000 (contract §10)', async () => {
      const p = await payer();
      for (const amount of ['9999999999999.99', '10000000000000', '1E13']) {
        await t.http.post(`/psd2/savings/3.0/accounts/${p.account}/transfers`).set({ ...p.headers(), 'Content-Type': 'application/json' }).send(rawBody(amount)).expect(201);
      }
      const listed = (await t.http.get(`/v2/accounts/${p.account}/transfers`).set(p.headers()).expect(200)).body.transfers as Array<{ amount: number }>;
      expect(listed.map((transfer) => transfer.amount).sort((a, b) => a - b)).toEqual([9999999999999.99, 10000000000000, 10000000000000]);
      const rows: Array<{ amount: string }> = await t.get(DataSource).query('SELECT amount::text FROM transfer WHERE account_number = $1 ORDER BY transfer.amount', [p.account]);
      expect(rows.map((row) => row.amount)).toEqual(['9999999999999.99', '10000000000000.00', '10000000000000.00']);
    });

    it('accepts the limits exactly: 140/140/30 ISO 8859-1 characters, Swedish letters included (bank §2.7)', async () => {
      const p = await payer();
      await p.order({ recipient_name: 'Å'.repeat(140), counter_part_statement: 'ö'.repeat(140), statement: 'ä'.repeat(30) }).expect(201);
    });

    it('accepts today as transfer_date (Stockholm), which differs from UTC after 23:00 UTC (contract §10)', async () => {
      const p = await payer();
      await t.clock.freeze('2026-11-24T23:30:00Z'); // already 25 November in Stockholm
      await p.renew();
      expectValidationFailed(await p.order({ transfer_date: '2026-11-24' }), 'transfer_date');
      await p.order({ transfer_date: '2026-11-25' }).expect(201);
    });

    it('transfer_date today is taken up to a millisecond before 00:00 Stockholm; from exactly 00:00 that date is past (contract §6, §10)', async () => {
      const p = await payer();
      await t.clock.freeze('2026-11-24T23:59:59.999+01:00');
      await p.renew();
      await p.order({ transfer_date: '2026-11-24' }).expect(201);
      await t.clock.freeze('2026-11-25T00:00:00+01:00');
      expectValidationFailed(await p.order({ transfer_date: '2026-11-24' }), 'transfer_date');
    });

    it('recipient_name is optional up to a millisecond before 2025-11-01T00:00 Stockholm and mandatory from exactly then (sandbox clock, contract §6, §10)', async () => {
      const p = await payer();
      await t.clock.freeze('2025-10-31T23:59:59.999+01:00');
      await p.order({ recipient_name: undefined, transfer_date: '2025-11-03' }).expect(201);
      await t.clock.freeze('2025-11-01T00:00:00+01:00');
      expectValidationFailed(await p.order({ recipient_name: undefined, transfer_date: '2025-11-03' }), 'recipient_name');
    });

    it('answers 404 on another user\'s account (contract §2)', async () => {
      const p = await payer();
      const other = await newPsu(t);
      expectProblem(await p.order({}, `/psd2/savings/3.0/accounts/${other.accounts[0]}/transfers`), 404, 'NOT_FOUND');
    });

    it('answers for the account first: another user\'s account is 404 even with a past date or another currency (contract §2)', async () => {
      const p = await payer();
      const other = await newPsu(t);
      const path = `/psd2/savings/3.0/accounts/${other.accounts[0]}/transfers`;
      expectProblem(await p.order({ transfer_date: '2026-11-23' }, path), 404, 'NOT_FOUND');
      expectProblem(await p.order({ currency: 'EUR' }, path), 404, 'NOT_FOUND');
    });

    it('takes authenticate and authorize tokens with PIS; a non-authenticated token is 403 TOKEN_KIND_NOT_ALLOWED (contract §5)', async () => {
      const p = await payer();
      const authorize = await p.psu.token('authorize', 'PIS');
      await t.http.post(`/psd2/savings/3.0/accounts/${p.account}/transfers`).set(bearer(p.psu.tpp, authorize)).send(body()).expect(201);
      const nonAuth = await p.psu.token('non_authenticated');
      expectProblem(await t.http.post(`/psd2/savings/3.0/accounts/${p.account}/transfers`).set(bearer(p.psu.tpp, nonAuth)).send(body()), 403, 'TOKEN_KIND_NOT_ALLOWED');
    });

    it('a token without PIS is 403 SCOPE_NOT_GRANTED (contract §5)', async () => {
      const p = await payer();
      const aisOnly = await p.psu.token('authenticate', 'AIS');
      expectProblem(await t.http.post(`/psd2/savings/3.0/accounts/${p.account}/transfers`).set(bearer(p.psu.tpp, aisOnly)).send(body()), 403, 'SCOPE_NOT_GRANTED');
    });

    it('a certificate without PSP_PI is 403 ROLE_NOT_IN_CERTIFICATE (contract §5)', async () => {
      const org = 'PSDSE-FINA-42424';
      const q = await payer({ tpp: new Psd2Client(t, await certificate(['PSP_AI', 'PSP_PI'], org)) });
      const aiOnly = new Psd2Client(t, await certificate(['PSP_AI'], org));
      expectProblem(await t.http.post(`/psd2/savings/3.0/accounts/${q.account}/transfers`).set(bearer(aiOnly, q.token)).send(body()), 403, 'ROLE_NOT_IN_CERTIFICATE');
    });

    it('v3 takes the non-authenticated token, and its status route answers the transfer (bank §4.2)', async () => {
      const p = await payer();
      const nonAuth = await p.psu.token('non_authenticated');
      const created = await t.http.post(`/v3/accounts/${p.account}/transfers`).set(bearer(p.psu.tpp, nonAuth)).send(body()).expect(201);
      const status = await t.http.get(`/v3/accounts/${p.account}/transfers/${created.body.reference_id}/status`).set(bearer(p.psu.tpp, nonAuth)).expect(200);
      expect(status.body).toEqual({ reference_id: created.body.reference_id, status: 'AWAITING_SIGNATURE' });
    });

    it('another TPP does not see the transfer (404); the status of an unknown reference is 404 (contract §2)', async () => {
      const p = await payer();
      const ref = (await p.order().expect(201)).body.reference_id;
      const otherTpp = await newPsu(t, { tpp: await Psd2Client.create(t) });
      void otherTpp;
      expectProblem(await p.status('0b4f3b8e-3c8e-4f43-9a43-0d6d3f1f6a11'), 404, 'NOT_FOUND');
      const sameUserOtherTpp = await Psd2Client.create(t);
      const { pendingCode } = await sameUserOtherTpp.pendingCode({ user: p.psu.user });
      await sameUserOtherTpp.status(pendingCode).expect(200);
      const otherToken = (await sameUserOtherTpp.exchange(pendingCode).expect(200)).body.access_token;
      expectProblem(await t.http.get(`/psd2/savings/3.0/accounts/${p.account}/transfers/${ref}/status`).set(bearer(sameUserOtherTpp, otherToken)), 404, 'NOT_FOUND');
    });
  });

  describe('signing (bank §3.2, §4.2 rule 3, §4.3; contract §10)', () => {
    it('start answers signing_id and autostart_token only; collect COMPLETE signs the transfer (AUTO_COMPLETE)', async () => {
      const p = await payer();
      const ref = (await p.order().expect(201)).body.reference_id;
      const started = await p.startSigning([ref]).expect(200);
      expect(started.body).toEqual({ signing_id: expect.stringMatching(UUID), autostart_token: expect.stringMatching(UUID) });
      expect((await p.collect(started.body.signing_id).expect(200)).body).toEqual({ status: 'COMPLETE' });
      expect((await p.status(ref).expect(200)).body.status).toBe('SIGNED');
    });

    it('MANUAL: collect PENDING OUTSTANDING_TRANSACTION until PUT sign-bankid simulates the signature (204), then COMPLETE', async () => {
      const p = await payer({ eid: 'MANUAL' });
      const ref = (await p.order().expect(201)).body.reference_id;
      const { signing_id } = (await p.startSigning([ref]).expect(200)).body;
      expect((await p.collect(signing_id).expect(200)).body).toEqual({ status: 'PENDING', hint_code: 'OUTSTANDING_TRANSACTION' });
      expect((await p.status(ref).expect(200)).body.status).toBe('AWAITING_SIGNATURE');
      await p.signBankId(signing_id).expect(204);
      expect((await p.status(ref).expect(200)).body.status).toBe('SIGNED');
      expect((await p.collect(signing_id).expect(200)).body).toEqual({ status: 'COMPLETE' });
      expectProblem(await p.signBankId(signing_id), 409, 'INVALID_STATE');
    });

    it('MANUAL: a signing completed in the eid app signs its transfers and activates its recurring ones without any collect; they execute on their date; a later collect answers COMPLETE and applies nothing twice (bank §3.2, §4.2 rule 3)', async () => {
      const p = await payer({ eid: 'MANUAL', balance: 100 });
      const ref = (await p.order({ amount: 10, transfer_date: '2026-11-25' }).expect(201)).body.reference_id;
      const recurring = (await p.orderRecurring({ amount: 5, transfer_date: '2026-11-30' }).expect(201)).body.reference_id;
      const { signing_id, autostart_token } = (await p.startSigning([ref, recurring]).expect(200)).body;
      const { operation_id } = (await t.http.post('/sandbox/eid/open').send({ token: autostart_token }).expect(200)).body;
      await t.clock.advance(4);
      await t.http.post(`/sandbox/eid/operations/${operation_id}/complete`).expect(204);
      expect((await p.status(ref).expect(200)).body.status).toBe('SIGNED');
      expect((await p.recurringStatus(recurring).expect(200)).body.status).toBe('ACTIVE');
      const applied = () => t.get(DataSource).query<Array<{ applied_at: Date }>>('SELECT applied_at FROM transfer_signing WHERE signing_id = $1', [signing_id]);
      const signedAt = () => t.get(DataSource).query<Array<{ signed_at: Date }>>('SELECT signed_at FROM transfer WHERE reference_id = $1', [ref]);
      expect((await applied())[0].applied_at.toISOString()).toBe('2026-11-24T09:00:04.000Z');
      expect((await signedAt())[0].signed_at.toISOString()).toBe('2026-11-24T09:00:04.000Z');
      await t.clock.advance(3);
      expect((await p.collect(signing_id).expect(200)).body).toEqual({ status: 'COMPLETE' });
      expect((await applied())[0].applied_at.toISOString()).toBe('2026-11-24T09:00:04.000Z');
      expect((await signedAt())[0].signed_at.toISOString()).toBe('2026-11-24T09:00:04.000Z');
      await t.clock.freeze('2026-11-25T00:00:00+01:00');
      await p.renew();
      await runJobs();
      expect((await p.status(ref).expect(200)).body.status).toBe('EXECUTED');
      expect(await p.balance()).toEqual(expect.objectContaining({ balance: 90, available_balance: 90 }));
    });

    it('FAIL:USER_CANCEL: collect FAILED USER_CANCEL and the transfer still awaits a signature; a new signing may follow', async () => {
      const p = await payer({ eid: 'FAIL:USER_CANCEL' });
      const ref = (await p.order().expect(201)).body.reference_id;
      const { signing_id } = (await p.startSigning([ref]).expect(200)).body;
      expect((await p.collect(signing_id).expect(200)).body).toEqual({ status: 'FAILED', hint_code: 'USER_CANCEL' });
      expect((await p.status(ref).expect(200)).body.status).toBe('AWAITING_SIGNATURE');
      await p.startSigning([ref]).expect(200);
    });

    it('COLLECT_ERROR ends the signing with COLLECT_ERROR (bank §3.2, contract §4)', async () => {
      const p = await payer({ eid: 'COLLECT_ERROR' });
      const ref = (await p.order().expect(201)).body.reference_id;
      const { signing_id } = (await p.startSigning([ref]).expect(200)).body;
      expect((await p.collect(signing_id).expect(200)).body).toEqual({ status: 'COLLECT_ERROR' });
    });

    it('the time rules apply: an unopened MANUAL signing is FAILED START_FAILED after 30 s (contract §4)', async () => {
      const p = await payer({ eid: 'MANUAL' });
      const ref = (await p.order().expect(201)).body.reference_id;
      const { signing_id } = (await p.startSigning([ref]).expect(200)).body;
      await t.clock.advance(30);
      expect((await p.collect(signing_id).expect(200)).body).toEqual({ status: 'FAILED', hint_code: 'START_FAILED' });
    });

    it('signs several transfers and a recurring transfer in one signing', async () => {
      const p = await payer();
      const a = (await p.order().expect(201)).body.reference_id;
      const b = (await p.order({ amount: 2 }).expect(201)).body.reference_id;
      const r = (await p.orderRecurring().expect(201)).body.reference_id;
      const { signing_id } = (await p.startSigning([a, b, r]).expect(200)).body;
      await p.collect(signing_id).expect(200);
      expect((await p.status(a).expect(200)).body.status).toBe('SIGNED');
      expect((await p.status(b).expect(200)).body.status).toBe('SIGNED');
      expect((await p.recurringStatus(r).expect(200)).body.status).toBe('ACTIVE');
    });

    it('PSU-IP-Address is mandatory on signing start and collect (bank §9 rule 9)', async () => {
      const p = await payer();
      const ref = (await p.order().expect(201)).body.reference_id;
      expectValidationFailed(await p.startSigning([ref], { 'PSU-IP-Address': undefined }), 'PSU-IP-Address');
      const { signing_id } = (await p.startSigning([ref]).expect(200)).body;
      expectValidationFailed(await p.collect(signing_id, { 'PSU-IP-Address': undefined }), 'PSU-IP-Address');
    });

    it('refuses an unknown or another user\'s transfer (404) and one not awaiting a signature (409)', async () => {
      const p = await payer();
      expectProblem(await p.startSigning(['0b4f3b8e-3c8e-4f43-9a43-0d6d3f1f6a11']), 404, 'NOT_FOUND');
      const other = await payer();
      const theirs = (await other.order().expect(201)).body.reference_id;
      expectProblem(await p.startSigning([theirs]), 404, 'NOT_FOUND');
      const signed = await signedTransfer(p);
      expectProblem(await p.startSigning([signed]), 409, 'INVALID_STATE');
      expectValidationFailed(await p.startSigning([]), 'reference_ids');
      expectValidationFailed(await p.startSigning(['nope']), 'reference_ids');
    });

    it('collect of another TPP\'s signing or an unknown one is 404', async () => {
      const p = await payer();
      const ref = (await p.order().expect(201)).body.reference_id;
      const { signing_id } = (await p.startSigning([ref]).expect(200)).body;
      const q = await payer();
      expectProblem(await q.collect(signing_id), 404, 'NOT_FOUND');
      expectProblem(await p.collect('0b4f3b8e-3c8e-4f43-9a43-0d6d3f1f6a11'), 404, 'NOT_FOUND');
    });
  });

  describe('execution (contract §10, bank §4.2 rule 2)', () => {
    it('a signed transfer executes at exactly 00:00 Stockholm on its date, not a millisecond before: balance, transaction and status (contract §6, §10)', async () => {
      const p = await payer({ balance: 1000 });
      const ref = await signedTransfer(p, { amount: 100.5, transfer_date: '2026-11-25' });
      await runJobs();
      expect((await p.status(ref).expect(200)).body.status).toBe('SIGNED');
      await t.clock.freeze('2026-11-24T23:59:59.999+01:00');
      await p.renew();
      await runJobs();
      expect((await p.status(ref).expect(200)).body.status).toBe('SIGNED');
      await t.clock.freeze('2026-11-25T00:00:00+01:00');
      await runJobs();
      expect((await p.status(ref).expect(200)).body.status).toBe('EXECUTED');
      expect(await p.balance()).toEqual(expect.objectContaining({ balance: 899.5, available_balance: 899.5 }));
      const details = await t.http.get(`/v2/accounts/${p.account}`).set(p.headers()).expect(200);
      expect(details.body.transactions).toEqual([{ reference_id: ref, amount: -100.5, currency: 'SEK', booking_date: '2026-11-25', counterpart: 'Anna Svensson' }]);
    });

    it('a transfer dated today executes at the next job run (contract §10)', async () => {
      const p = await payer({ balance: 50 });
      const ref = await signedTransfer(p, { amount: 10, transfer_date: '2026-11-24' });
      await runJobs();
      expect((await p.status(ref).expect(200)).body.status).toBe('EXECUTED');
    });

    it('a signed transfer due today lowers the available balance until it is booked', async () => {
      const p = await payer({ balance: 50 });
      await signedTransfer(p, { amount: 10, transfer_date: '2026-11-24' });
      await signedTransfer(p, { amount: 5, transfer_date: '2026-11-26' });
      expect(await p.balance()).toEqual(expect.objectContaining({ balance: 50, available_balance: 40 }));
    });

    it('a transfer the balance does not cover is REJECTED with rejection_reason, and nothing is booked (§4.2 rule 2)', async () => {
      const p = await payer({ balance: 10 });
      const ref = await signedTransfer(p, { amount: 10.01, transfer_date: '2026-11-24' });
      await runJobs();
      expect((await p.status(ref).expect(200)).body).toEqual({ reference_id: ref, status: 'REJECTED', rejection_reason: 'INSUFFICIENT_FUNDS' });
      expect((await p.balance()).balance).toBe(10);
    });

    it('a transfer signed after its transfer date is REJECTED with TRANSFER_DATE_PASSED, and nothing is booked on the day gone (bank §4.2 rule 2, contract §10)', async () => {
      const p = await payer({ balance: 100 });
      const late = (await p.order({ amount: 10, transfer_date: '2026-11-25' }).expect(201)).body.reference_id;
      const onTime = await signedTransfer(p, { amount: 5, transfer_date: '2026-11-25' });
      // The day after the transfer date, the signature comes too late; one signed in time still pays.
      await t.clock.freeze('2026-11-26T09:00:00+01:00');
      await p.renew();
      expect((await p.collect((await p.startSigning([late]).expect(200)).body.signing_id).expect(200)).body).toEqual({ status: 'COMPLETE' });
      await runJobs();
      expect((await p.status(late).expect(200)).body).toEqual({ reference_id: late, status: 'REJECTED', rejection_reason: 'TRANSFER_DATE_PASSED' });
      expect((await p.status(onTime).expect(200)).body.status).toBe('EXECUTED');
      expect(await p.balance()).toEqual(expect.objectContaining({ balance: 95, available_balance: 95 }));
      const details = await t.http.get(`/v2/accounts/${p.account}`).set(p.headers()).expect(200);
      expect(details.body.transactions.map((x: { reference_id: string }) => x.reference_id)).toEqual([onTime]);
    });

    it('a transfer dated today and signed before midnight Stockholm executes (bank §4.2, contract §10)', async () => {
      const p = await payer({ balance: 100 });
      await t.clock.freeze('2026-11-25T23:59:00+01:00');
      await p.renew();
      const ref = await signedTransfer(p, { amount: 10, transfer_date: '2026-11-25' });
      await t.clock.freeze('2026-11-26T00:00:30+01:00');
      await runJobs();
      expect((await p.status(ref).expect(200)).body.status).toBe('EXECUTED');
    });

    it('signed a millisecond before 00:00 after its date it executes; signed at exactly 00:00 it is REJECTED TRANSFER_DATE_PASSED (bank §4.2 rule 2, contract §6, §10)', async () => {
      const p = await payer({ balance: 100 });
      await t.clock.freeze('2026-11-25T23:00:00+01:00');
      await p.renew();
      const inTime = (await p.order({ amount: 10, transfer_date: '2026-11-25' }).expect(201)).body.reference_id;
      const late = (await p.order({ amount: 5, transfer_date: '2026-11-25' }).expect(201)).body.reference_id;
      const sign = async (ref: string) => expect((await p.collect((await p.startSigning([ref]).expect(200)).body.signing_id).expect(200)).body).toEqual({ status: 'COMPLETE' });
      await t.clock.freeze('2026-11-25T23:59:59.999+01:00');
      await p.renew();
      await sign(inTime);
      await t.clock.freeze('2026-11-26T00:00:00+01:00');
      await sign(late);
      await runJobs();
      expect((await p.status(inTime).expect(200)).body.status).toBe('EXECUTED');
      expect((await p.status(late).expect(200)).body).toEqual({ reference_id: late, status: 'REJECTED', rejection_reason: 'TRANSFER_DATE_PASSED' });
      expect((await p.balance()).balance).toBe(90);
    });

    it('an unsigned transfer never executes', async () => {
      const p = await payer();
      const ref = (await p.order({ transfer_date: '2026-11-24' }).expect(201)).body.reference_id;
      await t.clock.freeze('2026-12-01T12:00:00+01:00');
      await p.renew();
      await runJobs();
      expect((await p.status(ref).expect(200)).body.status).toBe('AWAITING_SIGNATURE');
    });

    it('credits a recipient that is a sandbox account in the same currency', async () => {
      const p = await payer({ balance: 100 });
      const recipient = await newPsu(t, { balance: 0 });
      await signedTransfer(p, { amount: 40, transfer_date: '2026-11-24', recipient_account_number: recipient.accounts[0] });
      await runJobs();
      const theirs = await t.admin.get(`/admin/users/${recipient.user}`).expect(200);
      expect(theirs.body.accounts[0].balance).toBe(40);
    });

    it('lists transactions by execution instant, newest first, and every transfer in any status (contract §10)', async () => {
      const p = await payer({ balance: 100 });
      const first = await signedTransfer(p, { amount: 1, transfer_date: '2026-11-24' });
      const second = await signedTransfer(p, { amount: 2, transfer_date: '2026-11-25' });
      const pending = (await p.order({ amount: 3 }).expect(201)).body.reference_id;
      await t.clock.freeze('2026-11-25T08:00:00+01:00');
      await p.renew();
      await runJobs();
      const details = await t.http.get(`/v2/accounts/${p.account}`).set(p.headers()).expect(200);
      expect(details.body.transactions.map((x: { reference_id: string }) => x.reference_id)).toEqual([second, first]);
      const transfers = await t.http.get(`/v2/accounts/${p.account}/transfers`).set(p.headers()).expect(200);
      expect(new Map(transfers.body.transfers.map((x: { reference_id: string; status: string }) => [x.reference_id, x.status]))).toEqual(
        new Map([[first, 'EXECUTED'], [second, 'EXECUTED'], [pending, 'AWAITING_SIGNATURE']]),
      );
      const one = await t.http.get(`/v2/accounts/${p.account}/transfers/${pending}`).set(p.headers()).expect(200);
      expect(one.body).toMatchObject({ reference_id: pending, status: 'AWAITING_SIGNATURE', amount: 3, recipient_account_number: BANKGIRO });
    });
  });

  describe('deletion (bank §4.3; contract §10)', () => {
    it('before execution: 204 and status DELETED; it never executes', async () => {
      const p = await payer({ balance: 100 });
      const ref = await signedTransfer(p, { amount: 10, transfer_date: '2026-11-24' });
      await p.remove(ref).expect(204);
      expect((await p.status(ref).expect(200)).body.status).toBe('DELETED');
      await runJobs();
      expect((await p.balance()).balance).toBe(100);
    });

    it('an executed transfer is 409; an unknown one 404', async () => {
      const p = await payer({ balance: 100 });
      const ref = await signedTransfer(p, { amount: 10, transfer_date: '2026-11-24' });
      await runJobs();
      expectProblem(await p.remove(ref), 409, 'INVALID_STATE');
      expectProblem(await p.remove('0b4f3b8e-3c8e-4f43-9a43-0d6d3f1f6a11'), 404, 'NOT_FOUND');
    });
  });

  describe('recurring transfers (contract §10)', () => {
    it('answers 201 AWAITING_SIGNATURE; the status shows next_transfer_date; signing makes it ACTIVE', async () => {
      const p = await payer();
      const ref = (await p.orderRecurring({ transfer_date: '2026-11-30' }).expect(201)).body.reference_id;
      expect((await p.recurringStatus(ref).expect(200)).body).toEqual({ reference_id: ref, status: 'AWAITING_SIGNATURE', next_transfer_date: '2026-11-30' });
      const { signing_id } = (await p.startSigning([ref]).expect(200)).body;
      await p.collect(signing_id).expect(200);
      expect((await p.recurringStatus(ref).expect(200)).body.status).toBe('ACTIVE');
    });

    it('books each occurrence on its date; a monthly day past the month\'s end falls on its last day', async () => {
      const p = await payer({ balance: 1000 });
      const ref = (await p.orderRecurring({ amount: 10, transfer_date: '2026-12-31' }).expect(201)).body.reference_id;
      await p.collect((await p.startSigning([ref]).expect(200)).body.signing_id).expect(200);
      await t.clock.freeze('2026-12-31T00:00:00+01:00');
      await p.renew();
      await runJobs();
      expect((await p.recurringStatus(ref).expect(200)).body.next_transfer_date).toBe('2027-01-31');
      await t.clock.freeze('2027-02-28T00:00:01+01:00');
      await p.renew();
      await runJobs();
      expect((await p.recurringStatus(ref).expect(200)).body.next_transfer_date).toBe('2027-03-31');
      expect((await p.balance()).balance).toBe(970);
      const transfers = (await t.http.get(`/v2/accounts/${p.account}/transfers`).set(p.headers()).expect(200)).body.transfers;
      expect(transfers.map((x: { transfer_date: string }) => x.transfer_date).sort()).toEqual(['2026-12-31', '2027-01-31', '2027-02-28']);
      expect(transfers.every((x: { recurring_transfer_id: string; status: string }) => x.recurring_transfer_id === ref && x.status === 'EXECUTED')).toBe(true);
    });

    it('ends after its end_date (ENDED, no next_transfer_date)', async () => {
      const p = await payer({ balance: 1000 });
      const ref = (await p.orderRecurring({ amount: 10, transfer_date: '2026-11-24', frequency: 'WEEKLY', end_date: '2026-12-05' }).expect(201)).body.reference_id;
      await p.collect((await p.startSigning([ref]).expect(200)).body.signing_id).expect(200);
      await t.clock.freeze('2026-12-10T12:00:00+01:00');
      await p.renew();
      await runJobs();
      expect((await p.recurringStatus(ref).expect(200)).body).toEqual({ reference_id: ref, status: 'ENDED' });
      expect((await p.balance()).balance).toBe(980);
    });

    it('an occurrence on end_date is booked at exactly 00:00 of that date, not a millisecond before; then it is ENDED (end_date is the last day of its period, contract §6, §10)', async () => {
      const p = await payer({ balance: 1000 });
      const ref = (await p.orderRecurring({ amount: 10, transfer_date: '2026-11-24', frequency: 'WEEKLY', end_date: '2026-12-01' }).expect(201)).body.reference_id;
      await p.collect((await p.startSigning([ref]).expect(200)).body.signing_id).expect(200);
      await runJobs();
      await t.clock.freeze('2026-11-30T23:59:59.999+01:00');
      await p.renew();
      await runJobs();
      expect((await p.recurringStatus(ref).expect(200)).body).toEqual({ reference_id: ref, status: 'ACTIVE', next_transfer_date: '2026-12-01' });
      expect((await p.balance()).balance).toBe(990);
      await t.clock.freeze('2026-12-01T00:00:00+01:00');
      await runJobs();
      expect((await p.recurringStatus(ref).expect(200)).body).toEqual({ reference_id: ref, status: 'ENDED' });
      expect((await p.balance()).balance).toBe(980);
    });

    it('a recurring transfer signed after its first dates rejects the occurrences dated before its signature (TRANSFER_DATE_PASSED) and pays the later ones (bank §4.2 rule 2, contract §10)', async () => {
      const p = await payer({ balance: 1000 });
      const ref = (await p.orderRecurring({ amount: 10, transfer_date: '2026-11-25', frequency: 'WEEKLY' }).expect(201)).body.reference_id;
      await t.clock.freeze('2026-12-03T12:00:00+01:00');
      await p.renew();
      await p.collect((await p.startSigning([ref]).expect(200)).body.signing_id).expect(200);
      await t.clock.freeze('2026-12-09T12:00:00+01:00');
      await p.renew();
      await runJobs();
      const transfers = (await t.http.get(`/v2/accounts/${p.account}/transfers`).set(p.headers()).expect(200)).body.transfers as Array<Record<string, string>>;
      const byDate = Object.fromEntries(transfers.map((x) => [x.transfer_date, [x.status, x.rejection_reason].filter(Boolean).join(' ')]));
      expect(byDate).toEqual({ '2026-11-25': 'REJECTED TRANSFER_DATE_PASSED', '2026-12-02': 'REJECTED TRANSFER_DATE_PASSED', '2026-12-09': 'EXECUTED' });
      expect((await p.balance()).balance).toBe(990);
      expect((await p.recurringStatus(ref).expect(200)).body).toEqual({ reference_id: ref, status: 'ACTIVE', next_transfer_date: '2026-12-16' });
    });

    it('DELETE stops the future occurrences (204, DELETED)', async () => {
      const p = await payer({ balance: 1000 });
      const ref = (await p.orderRecurring({ amount: 10, transfer_date: '2026-11-24', frequency: 'WEEKLY' }).expect(201)).body.reference_id;
      await p.collect((await p.startSigning([ref]).expect(200)).body.signing_id).expect(200);
      await runJobs();
      await p.removeRecurring(ref).expect(204);
      await t.clock.freeze('2027-01-01T12:00:00+01:00');
      await p.renew();
      await runJobs();
      expect((await p.recurringStatus(ref).expect(200)).body).toEqual({ reference_id: ref, status: 'DELETED' });
      expect((await p.balance()).balance).toBe(990);
      expectProblem(await p.removeRecurring(ref), 409, 'INVALID_STATE');
    });

    it('lists the recurring transfers of the TPP and user', async () => {
      const p = await payer();
      const ref = (await p.orderRecurring({ frequency: 'QUARTERLY', end_date: '2027-12-31' }).expect(201)).body.reference_id;
      const list = await t.http.get('/psd2/savings/3.0/accounts/recurring-transfers').set(p.headers()).expect(200);
      expect(list.body).toEqual({
        recurring_transfers: [
          expect.objectContaining({ reference_id: ref, status: 'AWAITING_SIGNATURE', frequency: 'QUARTERLY', end_date: '2027-12-31', next_transfer_date: '2026-11-25', amount: 100.5 }),
        ],
      });
    });

    it('refuses an unknown frequency or an end_date before the first occurrence with 400', async () => {
      const p = await payer();
      expectValidationFailed(await p.orderRecurring({ frequency: 'DAILY' }), 'frequency');
      expectValidationFailed(await p.orderRecurring({ end_date: '2026-11-24' }), 'end_date');
    });

    it('offers no route to update a recurring transfer (bank §4.3)', async () => {
      const p = await payer();
      const ref = (await p.orderRecurring().expect(201)).body.reference_id;
      for (const method of ['put', 'patch'] as const) {
        expectProblem(await t.http[method](`/psd2/savings/3.0/accounts/${p.account}/recurring-transfers/${ref}`).set(p.headers()).send({ amount: 1 }), 404, 'NOT_FOUND');
      }
    });
  });

  it('every amount is kept exact in the database (numeric, never floating point)', async () => {
    const p = await payer({ balance: 0.3 });
    await signedTransfer(p, { amount: 0.1, transfer_date: '2026-11-24' });
    await signedTransfer(p, { amount: 0.2, transfer_date: '2026-11-24' });
    await runJobs();
    expect((await p.balance()).balance).toBe(0);
    const rows = await t.get(DataSource).query('SELECT balance::text FROM account WHERE account_number = $1', [p.account]);
    expect(rows[0].balance).toBe('0.00');
  });
});

describeOnServer('PIS races on the PostgreSQL server (DEVELOPERS.md: races are the database\'s job)', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => ([a, b] = await twoInstances({ frozenAt: TUESDAY })));
  afterAll(() => closeApps(a, b));

  async function signedTransfers(count: number, balance: number) {
    const psu = await newPsu(a, { balance });
    const token = await psu.token();
    const headers = bearer(psu.tpp, token);
    const refs: string[] = [];
    for (let i = 0; i < count; i++) {
      refs.push(
        (await a.http.post(`/psd2/savings/3.0/accounts/${psu.accounts[0]}/transfers`).set(headers).send({ amount: 1, currency: 'SEK', transfer_date: '2026-11-24', recipient_account_number: BANKGIRO, recipient_name: 'X' }).expect(201))
          .body.reference_id,
      );
    }
    const { signing_id } = (await a.http.post('/psd2/savings/3.0/transfers/signing/start').set(headers).send({ reference_ids: refs }).expect(200)).body;
    await a.http.post('/psd2/savings/3.0/transfers/signing/collect').set(headers).send({ signing_id }).expect(200);
    return { psu, headers, refs };
  }

  it('two execution runs at once on two instances book each transfer exactly once (contract §6, §10)', async () => {
    const { psu, refs } = await signedTransfers(20, 100);
    await Promise.all([a.get(TransferExecutionService).executeDue(), b.get(TransferExecutionService).executeDue()]);
    const rows = await a.get(DataSource).query('SELECT count(*)::int AS n FROM account_transaction WHERE account_number = $1', [psu.accounts[0]]);
    expect(rows[0].n).toBe(refs.length);
    const account = await a.get(DataSource).query('SELECT balance::text FROM account WHERE account_number = $1', [psu.accounts[0]]);
    expect(account[0].balance).toBe('80.00');
  });

  it('a transfer raced against its own deletion is either executed (delete 409) or deleted (never booked)', async () => {
    const { psu, headers, refs } = await signedTransfers(10, 100);
    const [, deletions] = await Promise.all([
      b.get(TransferExecutionService).executeDue(),
      Promise.all(refs.map((ref) => a.http.delete(`/psd2/savings/3.0/accounts/${psu.accounts[0]}/transfers/${ref}`).set(headers))),
    ]);
    const statuses = await a.get(DataSource).query('SELECT reference_id, status FROM transfer WHERE reference_id = ANY($1::uuid[])', [refs]);
    const booked = await a.get(DataSource).query('SELECT reference_id FROM account_transaction WHERE reference_id = ANY($1::uuid[])', [refs]);
    const bookedIds = new Set(booked.map((r: { reference_id: string }) => r.reference_id));
    for (const [i, ref] of refs.entries()) {
      const status = statuses.find((s: { reference_id: string }) => s.reference_id === ref).status;
      if (deletions[i].status === 204) {
        expect({ ref, status, booked: bookedIds.has(ref) }).toEqual({ ref, status: 'DELETED', booked: false });
      } else {
        expect({ ref, http: deletions[i].status, status, booked: bookedIds.has(ref) }).toEqual({ ref, http: 409, status: 'EXECUTED', booked: true });
      }
    }
    const account = await a.get(DataSource).query('SELECT balance::text FROM account WHERE account_number = $1', [psu.accounts[0]]);
    expect(Number(account[0].balance)).toBe(100 - bookedIds.size);
  });
});
