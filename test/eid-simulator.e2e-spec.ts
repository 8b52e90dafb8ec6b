import { DataSource } from 'typeorm';
import { hashSecret } from '@app/common';
import { EidOrderService } from '@app/eid';
import { newPersonalNumber } from './support/personal-numbers';
import { expectProblem, expectValidationFailed } from './support/problems';
import { expectOAuthError, newUser, psd2App, Psd2Client } from './support/psd2';
import type { TestApp } from './support/test-app';

const UNKNOWN = '0b4f3b8e-3c8e-4f43-9a43-0d6d3f1f6a11';
/** What Chromium sends when it loads a page. */
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

describe('eid simulator API (contract §4)', () => {
  let t: TestApp;
  let tpp: Psd2Client;
  beforeAll(async () => ({ t, tpp } = await psd2App()));
  afterAll(() => t.close());
  beforeEach(() => t.clock.freeze());

  const open = (body: object) => t.http.post('/sandbox/eid/open').send(body);
  const act = (id: string, action: string, body?: object) => t.http.post(`/sandbox/eid/operations/${id}/${action}`).send(body);

  async function manualAuthentication(mode: 'AUTO_START' | 'QR_CODE' = 'AUTO_START') {
    const user = await newUser(t, { eid: 'MANUAL' });
    const started = await tpp.pendingCode({ user, mode });
    return { user, ...started };
  }

  describe('the time rules are half-open (contract §4, §6; bank §3.1, §8)', () => {
    const orderOf = async (user: string) =>
      (await t.get(DataSource).query(`SELECT status, hint_code FROM eid_order WHERE personal_number = $1`, [user]))[0] as { status: string; hint_code: string };

    it('the 30-second activation rule: unopened, an order is PENDING a millisecond before 30 s and FAILED START_FAILED at exactly 30 s; opened a millisecond before, it stays open', async () => {
      const early = await manualAuthentication();
      const due = await manualAuthentication();
      await t.clock.advance(29.999);
      expect((await tpp.status(due.pendingCode).expect(200)).body).toMatchObject({ eid_auth_status: 'PENDING', hint_code: 'OUTSTANDING_TRANSACTION' });
      await open({ token: early.autoStartToken }).expect(200);
      await t.clock.advance(0.001);
      expect((await tpp.status(due.pendingCode).expect(200)).body).toMatchObject({ eid_auth_status: 'FAILED', hint_code: 'START_FAILED' });
      expectProblem(await open({ token: due.autoStartToken }), 409, 'INVALID_STATE');
      expect((await tpp.status(early.pendingCode).expect(200)).body).toMatchObject({ eid_auth_status: 'PENDING', hint_code: 'USER_SIGN' });
    });

    it('the 3-minute order expiry: an opened order is PENDING a millisecond before 3:00 and FAILED EXPIRED_TRANSACTION at exactly 3:00, its code then expired_token', async () => {
      const { pendingCode, autoStartToken } = await manualAuthentication();
      await open({ token: autoStartToken }).expect(200);
      await t.clock.advance(179.999);
      expect((await tpp.status(pendingCode).expect(200)).body).toMatchObject({ eid_auth_status: 'PENDING', hint_code: 'USER_SIGN' });
      await t.clock.advance(0.001);
      expect((await tpp.status(pendingCode).expect(200)).body).toMatchObject({ eid_auth_status: 'FAILED', hint_code: 'EXPIRED_TRANSACTION' });
      expectOAuthError(await tpp.exchange(pendingCode), 400, 'expired_token');
    });

    it('the expiry job closes an unopened order at exactly 30 s and an opened one at exactly 3:00, neither a millisecond before', async () => {
      const unopened = await manualAuthentication();
      const opened = await manualAuthentication();
      await open({ token: opened.autoStartToken }).expect(200);
      const runJobs = () => t.admin.post('/admin/jobs/run').expect(200);
      await t.clock.advance(29.999);
      await runJobs();
      expect(await orderOf(unopened.user)).toEqual({ status: 'PENDING', hint_code: 'OUTSTANDING_TRANSACTION' });
      await t.clock.advance(0.001);
      await runJobs();
      expect(await orderOf(unopened.user)).toEqual({ status: 'FAILED', hint_code: 'START_FAILED' });
      await t.clock.advance(149.999);
      await runJobs();
      expect(await orderOf(opened.user)).toEqual({ status: 'PENDING', hint_code: 'USER_SIGN' });
      await t.clock.advance(0.001);
      await runJobs();
      expect(await orderOf(opened.user)).toEqual({ status: 'FAILED', hint_code: 'EXPIRED_TRANSACTION' });
    });
  });

  describe('POST /sandbox/eid/open', () => {
    it('opens by autostart token, needs no key, and answers { operation_id, kind, status } (contract §4)', async () => {
      const { autoStartToken } = await manualAuthentication();
      const res = await open({ token: autoStartToken }).expect(200);
      expect(res.body).toEqual({ operation_id: expect.any(String), kind: 'authentication', status: 'PENDING' });
    });

    it('opens by a QR string a millisecond less than 5 seconds after its t; at exactly 5 seconds it is 400 (contract §4, §6)', async () => {
      const { pendingCode } = await manualAuthentication('QR_CODE');
      const { qr_code } = (await tpp.status(pendingCode).expect(200)).body;
      await t.clock.advance(4.999);
      await open({ token: qr_code }).expect(200);

      const other = await manualAuthentication('QR_CODE');
      const stale = (await tpp.status(other.pendingCode).expect(200)).body.qr_code;
      await t.clock.advance(5);
      expectValidationFailed(await open({ token: stale }), 'token');
    });

    it('refuses a QR string with a forged code or an unknown token with 404 (contract §4)', async () => {
      const { pendingCode } = await manualAuthentication('QR_CODE');
      const { qr_code } = (await tpp.status(pendingCode).expect(200)).body;
      expectProblem(await open({ token: qr_code.replace(/.$/, (c: string) => (c === '0' ? '1' : '0')) }), 404, 'NOT_FOUND');
      expectProblem(await open({ token: UNKNOWN }), 404, 'NOT_FOUND');
      expectProblem(await open({ token: 'garbage' }), 404, 'NOT_FOUND');
    });

    it('lets a tester choose who authenticates; an unknown or malformed personal number is 400 (contract §4)', async () => {
      const { autoStartToken } = await manualAuthentication();
      expectValidationFailed(await open({ token: autoStartToken, personal_number: newPersonalNumber() }), 'personal_number');
      expectValidationFailed(await open({ token: autoStartToken, personal_number: '123' }), 'personal_number');
      const chosen = await newUser(t);
      await open({ token: autoStartToken, personal_number: chosen }).expect(200);
    });

    it('refuses an order that is no longer open with 409 INVALID_STATE (contract §4)', async () => {
      const { autoStartToken } = await manualAuthentication();
      await t.clock.advance(30);
      expectProblem(await open({ token: autoStartToken }), 409, 'INVALID_STATE');
    });

    it('refuses a body without token with 400', async () => {
      expectValidationFailed(await open({}), 'token');
    });
  });

  describe('operations', () => {
    async function opened(): Promise<{ id: string; pendingCode: string }> {
      const { autoStartToken, pendingCode } = await manualAuthentication();
      return { id: (await open({ token: autoStartToken }).expect(200)).body.operation_id, pendingCode };
    }

    it('hint sets any PENDING hint of bank §3.2, seen by status (contract §4)', async () => {
      const { id, pendingCode } = await opened();
      for (const hint of ['NO_CLIENT', 'STARTED', 'USER_MRTD', 'UNKNOWN', 'OUTSTANDING_TRANSACTION', 'USER_SIGN']) {
        await act(id, 'hint', { hint_code: hint }).expect(204);
        expect((await tpp.status(pendingCode).expect(200)).body).toEqual({ eid_auth_status: 'PENDING', hint_code: hint });
      }
    });

    it('a hint other than OUTSTANDING_TRANSACTION and NO_CLIENT means the app is open: the 30-second rule is met (contract §4)', async () => {
      const { autoStartToken, pendingCode } = await manualAuthentication();
      const [{ id }] = await t.get(DataSource).query('SELECT eid_order_id AS id FROM psd2_authorization WHERE pending_code_hash = $1', [hashSecret(pendingCode)]);
      expect(autoStartToken).toBeDefined();
      await act(id, 'hint', { hint_code: 'STARTED' }).expect(204);
      await t.clock.advance(40);
      expect((await tpp.status(pendingCode).expect(200)).body).toEqual({ eid_auth_status: 'PENDING', hint_code: 'STARTED' });
    });

    it('refuses a hint outside the PENDING set, and a fail hint outside the FAILED set, with 400 naming hint_code (contract §4)', async () => {
      const { id } = await opened();
      expectValidationFailed(await act(id, 'hint', { hint_code: 'USER_CANCEL' }), 'hint_code');
      expectValidationFailed(await act(id, 'fail', { hint_code: 'USER_SIGN' }), 'hint_code');
      expectValidationFailed(await act(id, 'fail', {}), 'hint_code');
    });

    it('acting on a finished order is 409 INVALID_STATE (contract §4)', async () => {
      const { id } = await opened();
      await act(id, 'complete').expect(204);
      for (const [action, body] of [['complete'], ['fail', { hint_code: 'USER_CANCEL' }], ['hint', { hint_code: 'STARTED' }], ['open']] as const) {
        expectProblem(await act(id, action, body), 409, 'INVALID_STATE');
      }
    });

    it('an unknown operation is 404; a malformed id 400 naming operation_id (contract §2, §4)', async () => {
      expectProblem(await act(UNKNOWN, 'complete'), 404, 'NOT_FOUND');
      expectValidationFailed(await act('nope', 'complete'), 'operation_id');
    });

    it('confirm-call and decline-call are for phone orders only: 409 INVALID_STATE on an app order (contract §4)', async () => {
      const { id } = await opened();
      expectProblem(await act(id, 'confirm-call'), 409, 'INVALID_STATE');
      expectProblem(await act(id, 'decline-call'), 409, 'INVALID_STATE');
    });
  });

  describe('GET /sandbox/eid/operations', () => {
    it('lists the open phone orders of a person, oldest first (contract §4)', async () => {
      const user = await newUser(t, { eid: 'MANUAL' });
      const orders = t.get(EidOrderService);
      const phone = await orders.start({ kind: 'signing', channel: 'phone', callInitiator: 'RP', personalNumber: user, requestedBy: 'Test Partner' });
      await tpp.pendingCode({ user });
      const res = await t.http.get('/sandbox/eid/operations').query({ personal_number: user }).expect(200);
      expect(res.body).toEqual({
        operations: [{ operation_id: phone.id, kind: 'signing', status: 'INITIATED', started_at: '2026-11-24T09:00:00.000Z' }],
      });
      await t.http.post(`/sandbox/eid/operations/${phone.id}/open`).expect(204);
      const after = await t.http.get('/sandbox/eid/operations').query({ personal_number: user }).expect(200);
      expect(after.body.operations[0]).toMatchObject({ status: 'PENDING', hint_code: 'USER_CALL_CONFIRM' });
      await act(phone.id, 'confirm-call').expect(204);
      await act(phone.id, 'decline-call').expect(204);
      expect((await t.http.get('/sandbox/eid/operations').query({ personal_number: user }).expect(200)).body).toEqual({ operations: [] });
    });

    it('leaves out phone orders the time rules have closed (contract §4)', async () => {
      const user = await newUser(t, { eid: 'NO_RESPONSE' });
      await t.get(EidOrderService).start({ kind: 'signing', channel: 'phone', callInitiator: 'USER', personalNumber: user, requestedBy: 'Test Partner' });
      await t.clock.advance(30);
      expect((await t.http.get('/sandbox/eid/operations').query({ personal_number: user }).expect(200)).body).toEqual({ operations: [] });
    });

    it('answers an empty list for a person without phone orders, and 400 for a malformed personal number', async () => {
      expect((await t.http.get('/sandbox/eid/operations').query({ personal_number: newPersonalNumber() }).expect(200)).body).toEqual({ operations: [] });
      expectValidationFailed(await t.http.get('/sandbox/eid/operations').query({ personal_number: '12' }), 'personal_number');
      expectValidationFailed(await t.http.get('/sandbox/eid/operations'), 'personal_number');
    });
  });

  describe('GET /sandbox/eid/operations/{operation_id} and its QR image', () => {
    it('shows an order as the app would: who asks, what kind, since when, status, person and time left (issue 9, contract §4)', async () => {
      const user = await newUser(t, { name: 'Tolvan Tolvansson', eid: 'MANUAL' });
      const { autoStartToken } = await tpp.pendingCode({ user });
      const { operation_id } = (await open({ token: autoStartToken }).expect(200)).body;
      await t.clock.advance(12);
      const res = await t.http.get(`/sandbox/eid/operations/${operation_id}`).expect(200);
      expect(res.body).toEqual({
        operation_id,
        kind: 'authentication',
        channel: 'app',
        status: 'PENDING',
        hint_code: 'USER_SIGN',
        requested_by: expect.stringMatching(/^PSDSE-TEST-/),
        personal_number: user,
        user_name: 'Tolvan Tolvansson',
        started_at: '2026-11-24T09:00:00.000Z',
        seconds_since_start: 12,
        seconds_left: 168,
        activation_limit_seconds: 30,
        qr_string: expect.stringMatching(/^eid\.[0-9a-f-]{36}\.12\.[0-9a-f]{64}$/),
      });
    });

    it('applies the time rules when read: an order never opened is FAILED START_FAILED after 30 s (contract §4)', async () => {
      const user = await newUser(t, { eid: 'MANUAL' });
      const phone = await t.get(EidOrderService).start({ kind: 'signing', channel: 'phone', callInitiator: 'RP', personalNumber: user, requestedBy: 'Test Partner' });
      await t.clock.advance(30);
      const res = await t.http.get(`/sandbox/eid/operations/${phone.id}`).expect(200);
      expect(res.body).toMatchObject({ status: 'FAILED', hint_code: 'START_FAILED', channel: 'phone', call_initiator: 'RP', seconds_left: 0 });
      expect(res.body).not.toHaveProperty('qr_string');
      expect(res.body.finished_at).toBe('2026-11-24T09:00:30.000Z');
    });

    it('serves the current QR string as an SVG image that changes every second, 409 once closed (contract §4)', async () => {
      const { pendingCode } = await manualAuthentication('QR_CODE');
      const { qr_code } = (await tpp.status(pendingCode).expect(200)).body;
      const { operation_id } = (await open({ token: qr_code }).expect(200)).body;
      const first = await t.http.get(`/sandbox/eid/operations/${operation_id}/qr.svg`).buffer(true).expect(200);
      expect(first.headers['content-type']).toMatch(/^image\/svg\+xml/);
      expect(first.headers['cache-control']).toBe('no-store');
      expect(String(first.body)).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
      await t.clock.advance(1);
      const second = await t.http.get(`/sandbox/eid/operations/${operation_id}/qr.svg`).buffer(true).expect(200);
      expect(String(second.body)).not.toBe(String(first.body));
      await act(operation_id, 'complete').expect(204);
      expectProblem(await t.http.get(`/sandbox/eid/operations/${operation_id}/qr.svg`), 409, 'INVALID_STATE');
    });

    it('an unknown operation is 404, a malformed id 400 naming operation_id (contract §2, §4)', async () => {
      expectProblem(await t.http.get(`/sandbox/eid/operations/${UNKNOWN}`), 404, 'NOT_FOUND');
      expectValidationFailed(await t.http.get('/sandbox/eid/operations/nope'), 'operation_id');
      expectProblem(await t.http.get(`/sandbox/eid/operations/${UNKNOWN}/qr.svg`), 404, 'NOT_FOUND');
    });
  });

  describe('POST /sandbox/eid/operations/{operation_id}/open with a personal number', () => {
    it('chooses who authenticates; the token issued names that user (contract §4)', async () => {
      const { autoStartToken, pendingCode } = await manualAuthentication();
      const { operation_id } = (await open({ token: autoStartToken }).expect(200)).body;
      const chosen = await newUser(t, { accounts: 1 });
      await act(operation_id, 'open', { personal_number: chosen }).expect(204);
      await act(operation_id, 'complete').expect(204);
      expect((await tpp.status(pendingCode).expect(200)).body).toEqual({ eid_auth_status: 'COMPLETE' });
      const token = (await tpp.exchange(pendingCode).expect(200)).body.access_token;
      const accounts = await t.http.get('/v2/accounts').set(tpp.headers({ Authorization: `Bearer ${token}` })).expect(200);
      expect(accounts.body.accounts).toHaveLength(1);
      expect(accounts.body.accounts[0].name).toBe('Konto 0');
    });

    it('refuses a person other than a signing\'s subject with 403, an unknown one with 400, and changes nothing (contract §4)', async () => {
      const user = await newUser(t, { eid: 'MANUAL' });
      const phone = await t.get(EidOrderService).start({ kind: 'signing', channel: 'phone', callInitiator: 'RP', personalNumber: user, requestedBy: 'Test Partner' });
      expectProblem(await act(phone.id, 'open', { personal_number: await newUser(t) }), 403, 'FORBIDDEN');
      expectValidationFailed(await act(phone.id, 'open', { personal_number: newPersonalNumber() }), 'personal_number');
      expectValidationFailed(await act(phone.id, 'open', { personal_number: user, extra: 1 }), 'extra');
      expect((await t.http.get(`/sandbox/eid/operations/${phone.id}`).expect(200)).body.status).toBe('INITIATED');
      await act(phone.id, 'open', { personal_number: user }).expect(204);
    });
  });

  describe('GET /sandbox/eid (the page)', () => {
    it('serves an HTML page with a labelled form for tokens and for phone orders (issue 9, contract §4)', async () => {
      const res = await t.http.get('/sandbox/eid').expect(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.text).toContain('<label for="token">');
      expect(res.text).toContain('<input id="token"');
      expect(res.text).toContain('<label for="personal-number">');
      expect(res.text).toContain('<input id="personal-number"');
    });

    it('renders one order server-side, escaping what the TPP sent (issue 9)', async () => {
      const user = await newUser(t, { eid: 'MANUAL' });
      const order = await t.get(EidOrderService).start({
        kind: 'signing',
        channel: 'phone',
        callInitiator: 'USER',
        personalNumber: user,
        requestedBy: '<b>Partner</b> & Co',
      });
      const res = await t.http.get('/sandbox/eid').query({ operation_id: order.id }).expect(200);
      expect(res.text).toContain('Signing asked by &lt;b&gt;Partner&lt;/b&gt; &amp; Co');
      expect(res.text).not.toContain('<b>Partner</b>');
      expect(res.text).toContain('data-action="confirm-call"');
      expect(res.text).toContain('2026-11-24T10:00:00+01:00');
    });

    it('lists a person\'s phone orders with links to each (issue 9, contract §4)', async () => {
      const user = await newUser(t, { eid: 'MANUAL' });
      const order = await t.get(EidOrderService).start({ kind: 'signing', channel: 'phone', callInitiator: 'RP', personalNumber: user, requestedBy: 'Test Partner' });
      const res = await t.http.get('/sandbox/eid').query({ personal_number: user }).expect(200);
      expect(res.text).toContain(`href="/sandbox/eid?operation_id=${order.id}"`);
    });

    it('shows an unknown order with 404 and a malformed personal number with 400 on the page (issue 9)', async () => {
      const page = (query: object) => t.http.get('/sandbox/eid').set('Accept', BROWSER_ACCEPT).query(query);
      const unknown = await page({ operation_id: UNKNOWN }).expect(404);
      expect(unknown.text).toMatch(/role="alert"><strong>404 NOT_FOUND<\/strong>/);
      const malformed = await page({ personal_number: '12' }).expect(400);
      expect(malformed.text).toMatch(/<strong>400 VALIDATION_FAILED<\/strong>: personal_number/);
      const notUuid = await page({ operation_id: 'x' }).expect(400);
      expect(notUuid.text).toContain('operation_id must be a UUID');
    });

    it('shows the error on the page to a browser, but answers a client that prefers JSON with the problem+json (contract §2, issue 13)', async () => {
      const browser = await t.http.get('/sandbox/eid').set('Accept', BROWSER_ACCEPT).query({ operation_id: 'junk' }).expect(400);
      expect(browser.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(browser.text).toContain('operation_id must be a UUID');

      expectValidationFailed(await t.http.get('/sandbox/eid').set('Accept', 'application/json').query({ operation_id: 'junk' }), 'operation_id');
      expectValidationFailed(await t.http.get('/sandbox/eid').set('Accept', 'application/problem+json').query({ personal_number: 'junk' }), 'personal_number');
      expectValidationFailed(await t.http.get('/sandbox/eid').set('Accept', 'application/json, text/html;q=0.5').query({ personal_number: '12' }), 'personal_number');
      expectProblem(await t.http.get('/sandbox/eid').set('Accept', 'application/json').query({ operation_id: UNKNOWN }), 404, 'NOT_FOUND');
    });

    it('answers a client that does not accept text/html at all with the problem+json (contract §2, issue 13)', async () => {
      expectValidationFailed(await t.http.get('/sandbox/eid').set('Accept', 'image/png').query({ operation_id: 'junk' }), 'operation_id');
    });

    it('answers a client that does not name text/html (curl\'s */*, no Accept) with the problem+json, and still serves it the page itself (contract §2)', async () => {
      for (const accept of ['*/*', undefined]) {
        const get = (query: object) => (accept === undefined ? t.http.get('/sandbox/eid').unset('Accept') : t.http.get('/sandbox/eid').set('Accept', accept)).query(query);
        expectValidationFailed(await get({ operation_id: 'abc' }), 'operation_id');
        expectValidationFailed(await get({ personal_number: '12' }), 'personal_number');
        expectProblem(await get({ operation_id: UNKNOWN }), 404, 'NOT_FOUND');
        const page = await get({}).expect(200);
        expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
        expect(page.text).toContain('<label for="token">');
      }
    });

    it('accepts the launch URI\'s query (autostarttoken, redirect) and refuses unknown parameters with 400 (contract §4)', async () => {
      const { autoStartToken } = await manualAuthentication();
      const res = await t.http.get('/sandbox/eid').query({ autostarttoken: autoStartToken, redirect: 'null' }).expect(200);
      expect(res.text).toContain(`data-token-to-open="${autoStartToken}"`);
      expectValidationFailed(await t.http.get('/sandbox/eid').query({ nonsense: 1 }), 'nonsense');
    });
  });
});
