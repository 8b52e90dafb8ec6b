import { randomBytes, randomUUID } from 'node:crypto';
import type { Response, Test } from 'supertest';
import { DataSource } from 'typeorm';
import { JournalWriter } from '@app/common';
import { newPartner } from './support/fixtures';
import { newPersonalNumber } from './support/personal-numbers';
import { certificate, newPsu, newUser, Psd2Client } from './support/psd2';
import { type CreatedSandbox, createSandbox, rowCounts, rowDigests, sandboxView } from './support/sandboxes';
import { BASE_TIME, createTestApp, type TestApp } from './support/test-app';

/*
 * Contract §13 Isolation: two sandboxes with identical personal numbers, account numbers, organization
 * id (one test certificate) and partner key drive the same flows through every interface. Nothing of
 * one is visible, usable or changed from the other: the same flow answers the same in B after A ran
 * it, A's values are answered in B exactly as unknown values of their kind, and neither flow changes
 * a row of the other sandbox.
 */

const IP_A = '198.51.100.1';
const IP_B = '198.51.100.2';
const ORG = `PSDSE-ISOL-${String(Date.now()).slice(-8)}`;
const PARTNER_KEY = `isolation-partner-key-${randomUUID()}`;
const SECOND_PARTNER_KEY = `isolation-second-key-${randomUUID()}`;
const PSU_PN = newPersonalNumber();
const WAITING_PN = newPersonalNumber();
const APPLICANT = newPersonalNumber();
const CO_APPLICANT = newPersonalNumber();
const BORROWER = newPersonalNumber();
const SUPPLEMENT = randomUUID();
const ACCOUNT = `9250${String(Date.now()).slice(-7)}`;
/** A window of bank §8: the downtime bookkeeping runs before, inside and after it. */
const BEFORE_WINDOW = '2026-11-22T03:00:00+01:00';
const IN_WINDOW = '2026-11-22T05:00:00+01:00';
const AFTER_WINDOW = '2026-11-22T08:00:00+01:00';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const UUIDS = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const QR = /^eid\.([0-9a-f-]{36})\.(\d+)\.[0-9a-f]{64}$/;
const TOKEN = /^[A-Za-z0-9_-]{20,}$/;

/** What one sandbox's run of the flows left to present elsewhere. */
interface Run {
  /** Every step's answer, ids and secrets replaced by their kind: equal runs answer equally. */
  log: Array<[string, number, unknown]>;
  tpp: Psd2Client;
  accessToken: string;
  refreshToken: string;
  waitingCode: string;
  waitingAutostart: string;
  referenceId: string;
  unsignedReferenceId: string;
  signingId: string;
  participantId: string;
  phoneParticipantId: string;
  signingAutostart: string;
  signingQr: string;
  phoneOperationId: string;
  preApprovalId: string;
  loanApplicationId: string;
  enterpriseToken: string;
  enterpriseEndUserToken: string;
  enterprisePendingCode: string;
  /** The sandbox's clock when the run ended (frozen). */
  endedAt: string;
}

/** A value's kind in place of the value: what two sandboxes' equal flows may differ in. */
function kindOf(value: unknown): unknown {
  if (typeof value === 'string') {
    if (UUID.test(value)) return '<uuid>';
    // A problem's instance names the sandbox (and maybe an id) in its path.
    if (value.startsWith('/')) return value.replace(UUIDS, '<uuid>');
    if (QR.test(value)) return '<qr>';
    if (TOKEN.test(value) && value.length >= 32) return '<token>';
    return value;
  }
  if (Array.isArray(value)) return value.map(kindOf);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, kindOf(v)]));
  return value;
}

/** A value of the same kind that no sandbox has issued. */
function unknownLike(value: string): string {
  if (UUID.test(value)) return randomUUID();
  const qr = QR.exec(value);
  if (qr) return `eid.${randomUUID()}.${qr[2]}.${randomBytes(32).toString('hex')}`;
  return randomBytes(value.length).toString('base64url').slice(0, value.length);
}

/** The answer as a client sees it, the presented value replaced: an unknown value and a foreign one must answer alike. */
function answer(res: Response, presented: string): unknown {
  const body = JSON.parse(JSON.stringify(res.body ?? null).split(presented).join('<presented>'));
  if (body && typeof body === 'object' && typeof body.instance === 'string') body.instance = '<path>';
  return { status: res.status, body, wwwAuthenticate: res.headers['www-authenticate'] };
}

/** `call` with a value of another sandbox answers exactly as with a value of its kind that nobody issued (contract §13). */
async function expectAnsweredAsUnknown(call: (value: string) => Test, foreign: string): Promise<number> {
  const unknown = unknownLike(foreign);
  const [withForeign, withUnknown] = [await call(foreign), await call(unknown)];
  expect(answer(withForeign, foreign)).toEqual(answer(withUnknown, unknown));
  return withForeign.status;
}

/** The same flows in one sandbox: setup through its admin API, then every interface. */
async function drive(s: TestApp, cert: string): Promise<Run> {
  const log: Run['log'] = [];
  const rec = async (step: string, test: Test): Promise<Response> => {
    const res = await test;
    log.push([step, res.status, kindOf(res.body)]);
    return res;
  };
  const partner = (key = PARTNER_KEY, ip = IP_A) => ({ Authorization: `Bearer ${key}`, 'X-Forwarded-For': ip });

  // Admin: downtime bookkeeping across a window of bank §8 (contract §7), the same users, account, TPP and partner keys.
  await s.clock.freeze(BEFORE_WINDOW);
  await rec('admin jobs run before the window', s.admin.post('/admin/jobs/run'));
  await s.clock.freeze(IN_WINDOW);
  await rec('maintenance windows in the window', s.http.get('/sandbox/maintenance-windows'));
  await rec('a bank route in the window', s.http.get('/v2/accounts'));
  await s.clock.freeze(AFTER_WINDOW);
  await rec('admin jobs run after the window', s.admin.post('/admin/jobs/run'));
  await s.clock.freeze(BASE_TIME);
  await rec('admin tpp settings', s.admin.put(`/admin/tpps/${ORG}`, { non_authenticated_token_lifetime_s: 600 }));
  await rec('admin partner with a chosen key', s.admin.post('/admin/partners', { name: 'Second Partner AB', api_key: SECOND_PARTNER_KEY }));
  // Strict mode (contract §16): the CA is the service's, a revocation this sandbox's.
  // Issued certificates differ by key and serial, so the issue is not a step whose answer is compared.
  const issued = await s.admin.post('/sandbox/certificates', { organization_id: ORG, roles: ['PSP_AI'] }).expect(201);
  await rec('strict-mode certificate revoked', s.admin.post(`/admin/certificates/${issued.body.serial}/revoke`));
  const tpp = new Psd2Client(s, cert);
  await newPsu(s, { personalNumber: PSU_PN, accountNumbers: [ACCOUNT], eid: 'MANUAL', tpp });
  for (const pn of [WAITING_PN, APPLICANT, CO_APPLICANT]) await newUser(s, { personalNumber: pn, eid: 'MANUAL' });
  await newUser(s, { personalNumber: BORROWER });
  await rec('admin users', s.admin.get('/admin/users'));
  await rec('admin user', s.admin.get(`/admin/users/${PSU_PN}`));

  // PSD2 authorization and authentication (MANUAL user, completed in the eid simulator) and tokens.
  const psd2 = async (flow: 'authorize' | 'authenticate') => {
    const started = await rec(`psd2 ${flow}`, tpp.start({ flow, user: PSU_PN, scopes: 'AIS,PIS' }));
    const opened = await rec(`${flow}: eid open by autostart token`, s.http.post('/sandbox/eid/open').send({ token: started.body.auto_start_token }));
    await rec(`${flow}: eid complete`, s.http.post(`/sandbox/eid/operations/${opened.body.operation_id}/complete`));
    await rec(`${flow}: psd2 status`, tpp.status(started.body.pending_code));
    return rec(`${flow}: psd2 token exchange`, tpp.exchange(started.body.pending_code));
  };
  const exchanged = await psd2('authorize');
  await rec('psd2 non-authenticated token', tpp.nonAuthenticated(PSU_PN));
  let headers = { ...tpp.headers(), Authorization: `Bearer ${exchanged.body.access_token}` };

  // AIS and PIS: a transfer signed and executed, another left unsigned.
  await rec('ais accounts', s.http.get('/v2/accounts').set(headers));
  await rec('ais account', s.http.get(`/v2/accounts/${ACCOUNT}`).set(headers));
  const pis = `/psd2/savings/3.0/accounts/${ACCOUNT}`;
  const transfer = { amount: 10, currency: 'SEK', transfer_date: '2026-11-25', recipient_account_number: '5050-1055', recipient_name: 'Anna' };
  const ordered = await rec('pis transfer', s.http.post(`${pis}/transfers`).set(headers).send(transfer));
  await rec('pis recurring transfer', s.http.post(`${pis}/recurring-transfers`).set(headers).send({ ...transfer, frequency: 'MONTHLY' }));
  // With an Idempotency-Key (contract §15): the same key in every sandbox, each its own.
  const unsigned = await rec('pis transfer left unsigned', s.http.post(`${pis}/transfers`).set({ ...headers, 'Idempotency-Key': 'unsigned-transfer' }).send({ ...transfer, amount: 20 }));
  const signing = await rec('transfer signing start', s.http.post('/psd2/savings/3.0/transfers/signing/start').set(headers).send({ reference_ids: [ordered.body.reference_id] }));
  await rec('transfer sign-bankid', s.http.put(`/psd2/savings/3.0/transfers/sign-bankid/${signing.body.signing_id}`).set(headers));
  await rec('transfer signing collect', s.http.post('/psd2/savings/3.0/transfers/signing/collect').set(headers).send({ signing_id: signing.body.signing_id }));
  await s.clock.advance(2 * 86_400);
  await rec('admin jobs run (execution)', s.admin.post('/admin/jobs/run'));
  await rec('psd2 refresh (an AIS-only token)', tpp.refresh(exchanged.body.refresh_token));
  // PIS reads need a PIS token: authenticate again (1800 s; the clock does not move past it again).
  const authenticated = await psd2('authenticate');
  headers = { ...tpp.headers(), Authorization: `Bearer ${authenticated.body.access_token}` };
  await rec('pis transfer status', s.http.get(`${pis}/transfers/${ordered.body.reference_id}/status`).set(headers));
  await rec('pis unsigned status', s.http.get(`${pis}/transfers/${unsigned.body.reference_id}/status`).set(headers));
  await rec('ais account after execution', s.http.get(`/v2/accounts/${ACCOUNT}`).set(headers));

  // Partner: a pre-approval whose acceptance is signed through partner signing, with its §11 rules.
  const preApproval = await rec(
    'mortgage pre-approval',
    s.http.post('/mortgage/2.0/pre-approval').set(partner()).send({ applicants: [{ personal_number: APPLICANT, yearly_income: 900_000 }, { personal_number: CO_APPLICANT, yearly_income: 800_000 }], loan_amount: 2_000_000 }),
  );
  const accepted = await rec('mortgage acceptance', s.http.post(`/mortgage/2.0/pre-approval/${preApproval.body.id}/acceptance`).set(partner()).send({ with_unsecured_loan: false }));
  const [p1, p2] = (accepted.body.signing_process?.participants ?? []) as Array<{ id: string }>;
  const signingStart = await rec('partner signing start', s.http.post('/signing/1.0/start').set(partner()).send({ participant_id: p1?.id }));
  await rec('partner signing start from another IP (§11: 409, blocked)', s.http.post('/signing/1.0/start').set(partner(PARTNER_KEY, IP_B)).send({ participant_id: p1?.id }));
  await s.clock.advance(10);
  await rec('partner signing start while blocked (§11: 409)', s.http.post('/signing/1.0/start').set(partner()).send({ participant_id: p1?.id }));
  const collected = await rec('partner signing collect', s.http.post('/signing/1.0/collect').set(partner()).send({ participant_id: p1?.id }));
  await rec('partner phone signing', s.http.post('/partner/signing/1.0/start/phone').set(partner()).send({ participant_id: p2?.id, call_initiator: 'RP' }));
  await rec('mortgage pre-approval status', s.http.get(`/mortgage/2.0/pre-approval/${preApproval.body.id}/status`).set(partner()));

  // Eid simulator: the phone order as the app shows it, and the page.
  const operations = await rec('eid phone operations', s.http.get('/sandbox/eid/operations').query({ personal_number: CO_APPLICANT }));
  const phoneOperationId = operations.body.operations?.[0]?.operation_id as string;
  await rec('eid operation', s.http.get(`/sandbox/eid/operations/${phoneOperationId}`));
  const page = await s.http.get('/sandbox/eid').query({ operation_id: phoneOperationId }).set('Accept', 'text/html');
  log.push(['eid simulator page', page.status, page.text.includes(phoneOperationId)]);

  // Loan application and enterprise authentication.
  const loan = await rec('loan application', s.http.post('/api/loan-application/2.0/mortgages').set(partner()).send({ applicants: [{ personal_number: BORROWER, yearly_income: 700_000 }], loan_amount: 1_000_000 }));
  await rec('loan application status', s.http.get(`/api/loan-application/2.0/mortgages/status/${loan.body.id}`).set(partner()));
  const document = { document_type: 'PAYSLIP', file_name: 'lonespec.pdf', content_type: 'application/pdf', content: Buffer.from('%PDF-1.4 lönespecifikation').toString('base64') };
  await rec('loan application supplement', s.http.put(`/api/loan-application/2.0/mortgages/${loan.body.id}/supplementary-documentation/${SUPPLEMENT}`).set(partner()).send(document));
  const form = (body: Record<string, string>) => s.http.post('/api/auth/1.0/token').set(partner()).type('form').send(body);
  const authorize = () => s.http.get('/api/auth/1.0/authorize').set(partner()).query({ client_id: 'app', response_type: 'pending_code', scope: 'loan.read', user_id: BORROWER });
  const cc = await rec('enterprise client credentials', form({ grant_type: 'client_credentials' }));
  const authorized = await rec('enterprise authorize', authorize());
  const endUser = await rec('enterprise token exchange', form({ grant_type: 'pending_authorization_code', pending_code: authorized.body.pending_authorization_code }));
  const pendingEnterprise = await rec('enterprise authorize left pending', authorize());
  // Left open last: the clock does not move again, so it stays PENDING (contract §4: 30 s to open).
  const waiting = await rec('psd2 authenticate left pending', tpp.start({ user: WAITING_PN }));
  await rec('psd2 status of the pending one', tpp.status(waiting.body.pending_code));
  await rec('loan application status with the client credentials token', s.http.get(`/api/loan-application/2.0/mortgages/status/${loan.body.id}`).set({ Authorization: `Bearer ${cc.body.access_token}` }));

  return {
    log,
    tpp,
    accessToken: authenticated.body.access_token,
    refreshToken: exchanged.body.refresh_token,
    waitingCode: waiting.body.pending_code,
    waitingAutostart: waiting.body.auto_start_token,
    referenceId: ordered.body.reference_id,
    unsignedReferenceId: unsigned.body.reference_id,
    signingId: signing.body.signing_id,
    participantId: p1?.id,
    phoneParticipantId: p2?.id,
    signingAutostart: signingStart.body.autostart_token,
    signingQr: collected.body.qr_string,
    phoneOperationId,
    preApprovalId: preApproval.body.id,
    loanApplicationId: loan.body.id,
    enterpriseToken: cc.body.access_token,
    enterpriseEndUserToken: endUser.body.access_token,
    enterprisePendingCode: pendingEnterprise.body.pending_authorization_code,
    endedAt: await s.clock.now(),
  };
}

/** What a sandbox shows through its own routes without changing anything. */
async function visible(s: TestApp): Promise<unknown> {
  const reads = [
    s.admin.get('/admin/users'),
    s.admin.get(`/admin/users/${PSU_PN}`),
    s.admin.get('/admin/clock'),
    s.http.get('/sandbox/eid/operations').query({ personal_number: CO_APPLICANT }),
    s.http.get('/sandbox/maintenance-windows'),
  ];
  const answers = [];
  for (const read of reads) {
    const res = await read;
    answers.push({ status: res.status, body: res.body as unknown });
  }
  return answers;
}

describe('contract §13 Isolation: two sandboxes with identical personal numbers, account numbers, organization id and partner key, every interface', () => {
  let t: TestApp;
  let dataSource: DataSource;
  let sandboxA: CreatedSandbox;
  let sandboxB: CreatedSandbox;
  let A: TestApp;
  let B: TestApp;
  let a: Run;
  let b: Run;
  const before: Record<string, { digests: Record<string, string>; visible: unknown }> = {};
  const after: Record<string, { digests: Record<string, string>; visible: unknown }> = {};

  beforeAll(async () => {
    t = await createTestApp({ env: { TRUST_PROXY: 'on' } });
    dataSource = t.app.get(DataSource);
    const settings = { demo_partner_key: PARTNER_KEY, downtime_calendar: true, clock: { now: BASE_TIME, frozen: true } };
    sandboxA = await createSandbox(t, { name: 'A', ...settings });
    sandboxB = await createSandbox(t, { name: 'B', ...settings });
    A = sandboxView(t, sandboxA, BASE_TIME);
    B = sandboxView(t, sandboxB, BASE_TIME);
    const cert = await certificate(['PSP_AI', 'PSP_PI'], ORG);

    before.B = { digests: await rowDigests(dataSource, sandboxB.sandbox_id), visible: await visible(B) };
    a = await drive(A, cert);
    after.B = { digests: await rowDigests(dataSource, sandboxB.sandbox_id), visible: await visible(B) };
    before.A = { digests: await rowDigests(dataSource, sandboxA.sandbox_id), visible: await visible(A) };
    b = await drive(B, cert);
    after.A = { digests: await rowDigests(dataSource, sandboxA.sandbox_id), visible: await visible(A) };
  });
  afterAll(() => t.close());

  it('contract §13 Isolation: the same flows answer the same in B after A ran them (nothing of A is in B\'s way)', () => {
    expect(b.log).toEqual(a.log);
    const status = (step: string) => a.log.find(([name]) => name === step)?.[1];
    // The flows did what they say: a sanity check on A's run (B's is equal).
    expect(a.log.filter(([name, code]) => code >= 500 && name !== 'a bank route in the window')).toEqual([]);
    expect(status('a bank route in the window')).toBe(503);
    expect(status('authorize: psd2 token exchange')).toBe(200);
    expect(status('psd2 refresh (an AIS-only token)')).toBe(200);
    expect(a.log.find(([name]) => name === 'pis transfer status')?.[2]).toMatchObject({ status: 'EXECUTED' });
    expect(status('partner signing start')).toBe(200);
    expect(status('partner phone signing')).toBe(204);
    expect(status('enterprise token exchange')).toBe(200);
    expect(a.log.find(([name]) => name === 'eid simulator page')?.slice(1)).toEqual([200, true]);
  });

  it('contract §13 Isolation, §11: a signing in progress and a block in A do not refuse the same person, partner key and participant step in B', () => {
    for (const run of [a, b]) {
      const statuses = run.log.filter(([name]) => name.startsWith('partner signing start')).map(([, code]) => code);
      expect(statuses).toEqual([200, 409, 409]);
    }
  });

  it('contract §13 Isolation: A\'s flows changed no row of B, and B\'s flows no row of A; neither sees the other\'s through its routes', () => {
    expect(after.B.digests).toEqual(before.B.digests);
    expect(after.B.visible).toEqual(before.B.visible);
    expect(after.A.digests).toEqual(before.A.digests);
    expect(after.A.visible).toEqual(before.A.visible);
    // Every table's rows are the sandbox's own: A's flows wrote rows of their own in the tables B's flows wrote.
    expect(Object.keys(after.A.digests).length).toBeGreaterThan(20);
  });

  describe('each of A\'s values presented in B (and B\'s in A) is answered as an unknown value of its kind', () => {
    const pairs = () => [
      { own: A, foreign: b, mine: a },
      { own: B, foreign: a, mine: b },
    ];

    it('contract §13 Isolation: PSD2 access token 401, refresh token and pending code invalid_grant at the token endpoint, pending code 404 at status', async () => {
      for (const { own, foreign, mine } of pairs()) {
        const aisWith = (token: string) => own.http.get('/v2/accounts').set({ ...mine.tpp.headers(), Authorization: `Bearer ${token}` });
        await aisWith(mine.accessToken).expect(200);
        expect(await expectAnsweredAsUnknown(aisWith, foreign.accessToken)).toBe(401);
        expect(await expectAnsweredAsUnknown((rt) => mine.tpp.refresh(rt), foreign.refreshToken)).toBe(400);
        expect((await mine.tpp.refresh(foreign.refreshToken)).body.error).toBe('invalid_grant');
        expect(await expectAnsweredAsUnknown((code) => mine.tpp.exchange(code), foreign.waitingCode)).toBe(400);
        expect((await mine.tpp.exchange(foreign.waitingCode)).body.error).toBe('invalid_grant');
        expect(await expectAnsweredAsUnknown((code) => mine.tpp.status(code), foreign.waitingCode)).toBe(404);
        expect(await expectAnsweredAsUnknown((code) => mine.tpp.cancel(code), foreign.waitingCode)).toBe(404);
        // Its own pending code is still pending where it was issued.
        expect((await mine.tpp.status(mine.waitingCode).expect(200)).body.eid_auth_status).toBe('PENDING');
      }
    });

    it('contract §13 Isolation: AIS and PIS: another sandbox\'s token reads nothing; its reference ids and signing id are 404, and its unsigned transfer cannot be cancelled', async () => {
      for (const { own, foreign, mine } of pairs()) {
        const headers = { ...mine.tpp.headers(), Authorization: `Bearer ${mine.accessToken}` };
        const pis = `/psd2/savings/3.0/accounts/${ACCOUNT}`;
        const accountWith = (token: string) => own.http.get(`/v2/accounts/${ACCOUNT}`).set({ ...mine.tpp.headers(), Authorization: `Bearer ${token}` });
        expect(await expectAnsweredAsUnknown(accountWith, foreign.accessToken)).toBe(401);
        for (const ref of [foreign.referenceId, foreign.unsignedReferenceId]) {
          expect(await expectAnsweredAsUnknown((id) => own.http.get(`${pis}/transfers/${id}/status`).set(headers), ref)).toBe(404);
        }
        expect(await expectAnsweredAsUnknown((id) => own.http.delete(`${pis}/transfers/${id}`).set(headers), foreign.unsignedReferenceId)).toBe(404);
        expect(await expectAnsweredAsUnknown((id) => own.http.post('/psd2/savings/3.0/transfers/signing/start').set(headers).send({ reference_ids: [id] }), foreign.unsignedReferenceId)).toBe(404);
        expect(await expectAnsweredAsUnknown((id) => own.http.post('/psd2/savings/3.0/transfers/signing/collect').set(headers).send({ signing_id: id }), foreign.signingId)).toBe(404);
        expect(await expectAnsweredAsUnknown((id) => own.http.put(`/psd2/savings/3.0/transfers/sign-bankid/${id}`).set(headers), foreign.signingId)).toBe(404);
        await own.http.get(`${pis}/transfers/${mine.unsignedReferenceId}/status`).set(headers).expect(200);
      }
    });

    it('contract §13 Isolation: partner signing with the same partner key: another sandbox\'s participant ids are 404 on start, start/phone, collect and cancel', async () => {
      for (const { own, foreign, mine } of pairs()) {
        const call = (path: string, body: (id: string) => object) => (id: string) =>
          own.http.post(`/signing/1.0/${path}`).set({ Authorization: `Bearer ${PARTNER_KEY}`, 'X-Forwarded-For': IP_A }).send(body(id));
        for (const id of [foreign.participantId, foreign.phoneParticipantId]) {
          expect(await expectAnsweredAsUnknown(call('start', (p) => ({ participant_id: p })), id)).toBe(404);
          expect(await expectAnsweredAsUnknown(call('start/phone', (p) => ({ participant_id: p, call_initiator: 'RP' })), id)).toBe(404);
          expect(await expectAnsweredAsUnknown(call('collect', (p) => ({ participant_id: p })), id)).toBe(404);
          expect(await expectAnsweredAsUnknown(call('cancel', (p) => ({ participant_id: p })), id)).toBe(404);
        }
        // Its own participant is still in its signing: collect answers, the order open.
        expect((await call('collect', (p) => ({ participant_id: p }))(mine.participantId).expect(200)).body.status).toBe('PENDING');
      }
    });

    it('contract §13 Isolation: mortgage pre-approvals and loan applications of another sandbox are 404 with the same partner key', async () => {
      for (const { own, foreign, mine } of pairs()) {
        const auth = { Authorization: `Bearer ${PARTNER_KEY}` };
        expect(await expectAnsweredAsUnknown((id) => own.http.get(`/mortgage/2.0/pre-approval/${id}/status`).set(auth), foreign.preApprovalId)).toBe(404);
        expect(await expectAnsweredAsUnknown((id) => own.http.post(`/mortgage/2.0/pre-approval/${id}/acceptance`).set(auth).send({ with_unsecured_loan: false }), foreign.preApprovalId)).toBe(404);
        const loans = '/api/loan-application/2.0/mortgages';
        expect(await expectAnsweredAsUnknown((id) => own.http.get(`${loans}/status/${id}`).set(auth), foreign.loanApplicationId)).toBe(404);
        expect(await expectAnsweredAsUnknown((id) => own.http.delete(`${loans}/${id}`).set(auth), foreign.loanApplicationId)).toBe(404);
        await own.http.get(`/mortgage/2.0/pre-approval/${mine.preApprovalId}/status`).set(auth).expect(200);
        await own.http.get(`${loans}/status/${mine.loanApplicationId}`).set(auth).expect(200);
      }
    });

    it('contract §13 Isolation: enterprise: another sandbox\'s client credentials and end-user tokens are 401, its pending code invalid_grant', async () => {
      for (const { own, foreign, mine } of pairs()) {
        const loanWith = (token: string) => own.http.get(`/api/loan-application/2.0/mortgages/status/${mine.loanApplicationId}`).set({ Authorization: `Bearer ${token}` });
        await loanWith(mine.enterpriseToken).expect(200);
        expect(await expectAnsweredAsUnknown(loanWith, foreign.enterpriseToken)).toBe(401);
        expect(await expectAnsweredAsUnknown(loanWith, foreign.enterpriseEndUserToken)).toBe(401);
        const exchange = (code: string) =>
          own.http.post('/api/auth/1.0/token').set({ Authorization: `Bearer ${PARTNER_KEY}` }).type('form').send({ grant_type: 'pending_authorization_code', pending_code: code });
        expect(await expectAnsweredAsUnknown(exchange, foreign.enterprisePendingCode)).toBe(400);
        expect((await exchange(foreign.enterprisePendingCode)).body.error).toBe('invalid_grant');
      }
    });

    it('contract §13 Isolation: eid simulator: another sandbox\'s autostart tokens and QR string open nothing, its operation ids are 404 (API, QR image and the /sandbox/eid page under each prefix)', async () => {
      for (const { own, foreign, mine } of pairs()) {
        const open = (token: string) => own.http.post('/sandbox/eid/open').send({ token });
        for (const token of [foreign.waitingAutostart, foreign.signingAutostart, foreign.signingQr]) expect(await expectAnsweredAsUnknown(open, token)).toBe(404);
        const op = foreign.phoneOperationId;
        expect(await expectAnsweredAsUnknown((id) => own.http.get(`/sandbox/eid/operations/${id}`), op)).toBe(404);
        expect(await expectAnsweredAsUnknown((id) => own.http.get(`/sandbox/eid/operations/${id}/qr.svg`), op)).toBe(404);
        for (const action of ['open', 'complete', 'confirm-call', 'decline-call']) {
          expect(await expectAnsweredAsUnknown((id) => own.http.post(`/sandbox/eid/operations/${id}/${action}`), op)).toBe(404);
        }
        // The page shows an order by id (as JSON for a client that prefers it); ?autostarttoken= only hands the token to its script, which opens it through the API above.
        expect(await expectAnsweredAsUnknown((id) => own.http.get('/sandbox/eid').query({ operation_id: id }).set('Accept', 'application/json'), op)).toBe(404);
        expect((await own.http.get('/sandbox/eid').query({ operation_id: op }).set('Accept', 'text/html')).status).toBe(404);
        const listed = await own.http.get('/sandbox/eid').query({ personal_number: CO_APPLICANT }).set('Accept', 'text/html').expect(200);
        expect(listed.text).toContain(mine.phoneOperationId);
        expect(listed.text).not.toContain(op);
        // Its own order is still open where it was started.
        expect((await own.http.get(`/sandbox/eid/operations/${mine.phoneOperationId}`).expect(200)).body.status).toBe('INITIATED');
      }
    });

    it('contract §13 Isolation: admin: another sandbox\'s admin key is 401 on every admin route; users, TPP and partners are each sandbox\'s own', async () => {
      for (const [own, foreign] of [[sandboxA, sandboxB], [sandboxB, sandboxA]]) {
        const base = `/sandboxes/${own.sandbox_id}`;
        const auth = { Authorization: `Bearer ${foreign.admin_key}` };
        for (const res of [
          await t.http.get(`${base}/admin/users`).set(auth),
          await t.http.get(`${base}/admin/users/${PSU_PN}`).set(auth),
          await t.http.put(`${base}/admin/users/${newPersonalNumber()}`).set(auth).send({ name: 'No', kyc_completed: true }),
          await t.http.get(`${base}/admin/clock`).set(auth),
          await t.http.put(`${base}/admin/clock`).set(auth).send({ now: BASE_TIME }),
          await t.http.post(`${base}/admin/partners`).set(auth).send({ name: 'No AB' }),
          await t.http.put(`${base}/admin/tpps/${ORG}`).set(auth).send({ non_authenticated_token_lifetime_s: 1 }),
          await t.http.post(`${base}/admin/jobs/run`).set(auth),
          await t.http.post(`${base}/admin/seed`).set(auth).send({ users: [] }),
        ]) {
          expect(res.status).toBe(401);
        }
      }
      // The same partner key made by each sandbox's admin is each its own: A's second partner has no pre-approval of B's.
      expect(a.log.find(([name]) => name === 'admin partner with a chosen key')?.[1]).toBe(201);
      const second = { Authorization: `Bearer ${SECOND_PARTNER_KEY}` };
      await A.http.post('/api/auth/1.0/token').set(second).type('form').send({ grant_type: 'client_credentials' }).expect(200);
      // A TPP setting of A (the non-authenticated token lifetime) is not B's: B's changed to 60 s leaves A's at 600 s.
      await B.admin.put(`/admin/tpps/${ORG}`, { non_authenticated_token_lifetime_s: 60 }).expect(200);
      expect((await a.tpp.nonAuthenticated(PSU_PN).expect(200)).body.expires_in).toBe(600);
      expect((await b.tpp.nonAuthenticated(PSU_PN).expect(200)).body.expires_in).toBe(60);
      expect(typeof (await newPartner(B, { api_key: `${SECOND_PARTNER_KEY}-b` })).partner_id).toBe('string');
    });

    it('contract §13 Isolation, §7: A inside a maintenance window answers 503 while B, at its own time, answers; the bookkeeping recorded each sandbox\'s own events', async () => {
      await A.clock.freeze(IN_WINDOW);
      const headersB = { ...b.tpp.headers(), Authorization: `Bearer ${b.accessToken}` };
      expect((await A.http.get('/v2/accounts').set({ ...a.tpp.headers(), Authorization: `Bearer ${a.accessToken}` })).status).toBe(503);
      expect((await A.http.get('/sandbox/maintenance-windows').expect(200)).body.active).not.toBeNull();
      await B.http.get('/v2/accounts').set(headersB).expect(200);
      expect((await B.http.get('/sandbox/maintenance-windows').expect(200)).body.active).toBeNull();
      await A.clock.freeze(a.endedAt);
      const events = async (sandboxId: string) =>
        (await dataSource.query(`SELECT event FROM maintenance_window_event WHERE sandbox_id = $1 ORDER BY event`, [sandboxId])).map((row: { event: string }) => row.event);
      expect(await events(sandboxA.sandbox_id)).toEqual(['ended', 'started']);
      expect(await events(sandboxB.sandbox_id)).toEqual(['ended', 'started']);
      expect(await events('default')).toEqual([]);
    });
  });

  it('contract §13 Lifecycle: deleting A after the full flows leaves no row of it in any table with sandbox_id, and B\'s rows unchanged', async () => {
    await t.get(JournalWriter).flush();
    const counts = await rowCounts(dataSource, sandboxA.sandbox_id);
    // The flows wrote to every table but those whose rows live only while a job runs (the job
    // leases of a sandbox): the count below is over all of them.
    const whileAJobRuns = ['sandbox_job_lease'];
    expect(Object.entries(counts).filter(([table, n]) => n === 0 && !whileAJobRuns.includes(table)).map(([table]) => table)).toEqual([]);
    const digestsB = await rowDigests(dataSource, sandboxB.sandbox_id);
    await t.http.delete(`/sandboxes/${sandboxA.sandbox_id}`).set({ Authorization: `Bearer ${sandboxA.admin_key}` }).expect(204);
    expect(Object.entries(await rowCounts(dataSource, sandboxA.sandbox_id)).filter(([, n]) => n > 0)).toEqual([]);
    expect(await rowDigests(dataSource, sandboxB.sandbox_id)).toEqual(digestsB);
    await B.http.get('/v2/accounts').set({ ...b.tpp.headers(), Authorization: `Bearer ${b.accessToken}` }).expect(200);
  });
});
