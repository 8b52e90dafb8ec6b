import { randomUUID } from 'node:crypto';
import { JournalWriter } from '@app/common';
import { ParticipantService } from '@app/signing';
import { newPartner } from './support/fixtures';
import { expectProblem } from './support/problems';
import { bearer, certificate, expectOAuthError, newUser, Psd2Client, PSU_IP } from './support/psd2';
import { RecordingProcessModule } from './support/signing-process';
import { newPersonalNumber } from './support/personal-numbers';
import { BASE_TIME, createTestApp, TestApp } from './support/test-app';

/** The codes of a response's Sandbox-Hints header (contract §14), in order; [] without one. */
const hintsOf = (res: { headers: Record<string, string | undefined> }): string[] => res.headers['sandbox-hints']?.split(', ') ?? [];

/** The hints the journal recorded for a response (its X-Request-Id), messages included. */
async function recordedHints(t: TestApp, res: { headers: Record<string, string | undefined> }): Promise<Array<{ code: string; message: string; section: string }>> {
  await t.app.get(JournalWriter).flush();
  return (await t.admin.get(`/admin/requests/${res.headers['x-request-id']}`).expect(200)).body.hints;
}

const IP_A = '198.51.100.1';
const IP_B = '198.51.100.2';

/**
 * Contract §14 Hints: each finding raised where its rule lives, in the Sandbox-Hints header of the
 * response it concerns; a flow that follows the documents gets none.
 */
describe('rule hints (contract §14)', () => {
  let t: TestApp;
  let tpp: Psd2Client;
  beforeAll(async () => {
    t = await createTestApp({ env: { TRUST_PROXY: 'on' }, imports: [RecordingProcessModule], frozenAt: BASE_TIME });
    tpp = await Psd2Client.create(t);
  });
  afterAll(() => t.close());
  beforeEach(() => t.clock.freeze());

  it('a flow that follows the documents gets none: start, poll until COMPLETE, exchange once, use and refresh the token in time', async () => {
    const user = await newUser(t, { eid: 'AUTO_COMPLETE', accounts: 1 });
    const started = await tpp.start({ flow: 'authorize', user }).expect(200);
    const status = await tpp.status(started.body.pending_code).expect(200);
    expect(status.body.eid_auth_status).toBe('COMPLETE');
    const exchanged = await tpp.exchange(started.body.pending_code).expect(200);
    const accounts = await t.http.get('/v2/accounts').set(bearer(tpp, exchanged.body.access_token)).expect(200);
    const refreshed = await tpp.refresh(exchanged.body.refresh_token).expect(200);
    for (const res of [started, status, exchanged, accounts, refreshed]) expect(hintsOf(res)).toEqual([]);
  });

  describe('PSD2 authentication (bank §3.1, §4.1)', () => {
    it('POLLED_TOO_FAST (bank §4.1 rule 2): a QR_CODE status within a second of the previous poll', async () => {
      const user = await newUser(t, { eid: 'MANUAL' });
      const { pendingCode } = await tpp.pendingCode({ user, mode: 'QR_CODE' });
      expect(hintsOf(await tpp.status(pendingCode).expect(200))).toEqual([]);
      const tooFast = await tpp.status(pendingCode).expect(429);
      expect(hintsOf(tooFast)).toEqual(['POLLED_TOO_FAST']);
    });

    it('POLLED_AFTER_FINAL (bank §3.1): status 10 s (sandbox clock) after it first answered COMPLETE, not a millisecond before (contract §6, §14)', async () => {
      const user = await newUser(t, { eid: 'AUTO_COMPLETE' });
      const pendingCode = await tpp.completedCode({ user });
      await t.clock.advance(9.999);
      expect(hintsOf(await tpp.status(pendingCode).expect(200))).toEqual([]);
      // The 10 s are half-open (contract §6): at exactly 10 s the grace is over.
      await t.clock.advance(0.001);
      expect(hintsOf(await tpp.status(pendingCode).expect(200))).toEqual(['POLLED_AFTER_FINAL']);
    });

    it('EXCHANGE_BEFORE_COMPLETE (bank §3.1): a pending code exchanged whose status was never read as COMPLETE', async () => {
      const user = await newUser(t, { eid: 'MANUAL' });
      const { pendingCode, autoStartToken } = await tpp.pendingCode({ user });
      const opened = await t.http.post('/sandbox/eid/open').send({ token: autoStartToken }).expect(200);
      await t.http.post(`/sandbox/eid/operations/${opened.body.operation_id}/complete`).expect(204);
      expect(hintsOf(await tpp.exchange(pendingCode).expect(200))).toEqual(['EXCHANGE_BEFORE_COMPLETE']);
    });

    it('EXCHANGE_BEFORE_COMPLETE (bank §3.1): also on an exchange of a code still pending (no status call), refused authorization_pending; none once status read COMPLETE', async () => {
      const user = await newUser(t, { eid: 'AUTO_COMPLETE' });
      const { pendingCode } = await tpp.pendingCode({ user });
      const requestId = `early-exchange-${randomUUID()}`;
      const early = await tpp.token({ grant_type: 'pending_authorization_code', pending_code: pendingCode }, { 'X-Request-Id': requestId });
      expectOAuthError(early, 400, 'authorization_pending');
      expect(hintsOf(early)).toEqual(['EXCHANGE_BEFORE_COMPLETE']);
      await t.app.get(JournalWriter).flush();
      const recorded = (await t.admin.get(`/admin/requests/${requestId}`).expect(200)).body;
      expect(recorded).toMatchObject({ status: 400, hints: [{ code: 'EXCHANGE_BEFORE_COMPLETE', section: 'bank §3.1' }] });
      // The documented flow goes on: status until COMPLETE, then the exchange, which earns nothing.
      expect((await tpp.status(pendingCode).expect(200)).body.eid_auth_status).toBe('COMPLETE');
      expect(hintsOf(await tpp.exchange(pendingCode).expect(200))).toEqual([]);
    });

    it('EXCHANGE_BEFORE_COMPLETE (bank §3.1): also on an exchange of a code that failed, which status can never read as COMPLETE', async () => {
      const user = await newUser(t, { eid: 'FAIL:USER_CANCEL' });
      const { pendingCode } = await tpp.pendingCode({ user });
      expect((await tpp.status(pendingCode).expect(200)).body.eid_auth_status).toBe('FAILED');
      const refused = await tpp.exchange(pendingCode);
      expectOAuthError(refused, 400, 'invalid_grant');
      expect(hintsOf(refused)).toEqual(['EXCHANGE_BEFORE_COMPLETE']);
      // The advice fits a code that can never complete: start anew, not "poll until COMPLETE".
      const [hint] = await recordedHints(t, refused);
      expect(hint.message).toContain('FAILED and never will complete; start a new one');
    });

    it('SCOPE_NARROWER_THAN_CERTIFICATE (bank §1): informational, the start still succeeds', async () => {
      const user = await newUser(t, { eid: 'AUTO_COMPLETE' });
      expect(hintsOf(await tpp.start({ user, scopes: 'AIS' }).expect(200))).toEqual(['SCOPE_NARROWER_THAN_CERTIFICATE']);
    });

    it('MISSING_PSU_IP (bank §4): a call that needs PSU-IP-Address refused for lacking it', async () => {
      const user = await newUser(t, { eid: 'AUTO_COMPLETE' });
      const res = await tpp.start({ user, headers: { 'PSU-IP-Address': undefined } });
      expectProblem(res, 400, 'VALIDATION_FAILED');
      expect(hintsOf(res)).toEqual(['MISSING_PSU_IP']);
    });
  });

  describe('tokens (bank §4.2, §5.5, §7.1)', () => {
    it('TOKEN_EXPIRED (bank §5.5): an access token used after its lifetime, saying when it expired and how long it lived', async () => {
      const user = await newUser(t, { eid: 'AUTO_COMPLETE', accounts: 1 });
      const { access_token } = await tpp.tokens({ flow: 'authorize', user });
      await t.clock.advance(300 + 12);
      const res = await t.http.get('/v2/accounts').set(bearer(tpp, access_token)).expect(401);
      expect(hintsOf(res)).toEqual(['TOKEN_EXPIRED']);
      expect((await recordedHints(t, res))[0].message).toMatch(/expired 12 s ago .*it lived 300 s\. Refresh it \(grant_type=refresh_token\) or authorize again/);
    });

    it('TOKEN_EXPIRED says how to get a new token of that kind: no refresh for an authenticate or a non-authenticated token (bank §4.1, §5.5)', async () => {
      const user = await newUser(t, { eid: 'AUTO_COMPLETE', accounts: 1 });
      const { access_token: authenticated } = await tpp.tokens({ user });
      const { access_token: nonAuthenticated } = (await tpp.nonAuthenticated(user).expect(200)).body as { access_token: string };
      await t.clock.advance(1800);
      const [afterAuthenticate] = await recordedHints(t, await t.http.get('/v2/accounts').set(bearer(tpp, authenticated)).expect(401));
      expect(afterAuthenticate.message).toContain('Authenticate or authorize again: this flow gives no refresh token');
      const [afterNonAuthenticated] = await recordedHints(t, await t.http.get('/v2/accounts').set(bearer(tpp, nonAuthenticated)).expect(401));
      expect(afterNonAuthenticated.message).toContain('Ask for a new one (grant_type=non_authenticated_token)');
    });

    it("TOKEN_EXPIRED is this TPP's own token only: another TPP's expired token is just unknown", async () => {
      const user = await newUser(t, { eid: 'AUTO_COMPLETE', accounts: 1 });
      const { access_token } = await tpp.tokens({ flow: 'authorize', user });
      await t.clock.advance(400);
      const other = new Psd2Client(t, await certificate());
      expect(hintsOf(await t.http.get('/v2/accounts').set(bearer(other, access_token)).expect(401))).toEqual([]);
    });

    it('TOKEN_EXPIRED (bank §5.5): an enterprise client-credentials or end-user token used after its 300 s, on the loan-application status', async () => {
      const key = (await newPartner(t)).api_key;
      const user = await newUser(t);
      const asPartner = (credential: string) => ({ Authorization: `Bearer ${credential}` });
      const id = (
        await t.http.post('/api/loan-application/2.0/mortgages').set(asPartner(key)).send({ applicants: [{ personal_number: user, yearly_income: 700_000 }], loan_amount: 1_000_000 }).expect(201)
      ).body.id;
      const clientCredentials = (await t.http.post('/api/auth/1.0/token').set(asPartner(key)).type('form').send({ grant_type: 'client_credentials' }).expect(200)).body.access_token;
      const { pending_authorization_code } = (
        await t.http.get('/api/auth/1.0/authorize').set(asPartner(key)).query({ client_id: 'app', response_type: 'pending_code', scope: 'loan.read', user_id: user }).expect(200)
      ).body;
      const endUser = (
        await t.http.post('/api/auth/1.0/token').set(asPartner(key)).type('form').send({ grant_type: 'pending_authorization_code', pending_code: pending_authorization_code }).expect(200)
      ).body.access_token;
      const status = (credential: string) => t.http.get(`/api/loan-application/2.0/mortgages/status/${id}`).set(asPartner(credential));
      await t.clock.advance(299);
      for (const token of [clientCredentials, endUser]) expect(hintsOf(await status(token).expect(200))).toEqual([]);
      await t.clock.advance(1);
      for (const token of [clientCredentials, endUser]) expect(hintsOf(await status(token).expect(401))).toEqual(['TOKEN_EXPIRED']);
    });

    it('REFRESH_LAST_USE_TODAY on the 4th refresh of a Stockholm day, REFRESH_LIMIT_REACHED on the refused 5th (bank §5.5, §7.1 case 5)', async () => {
      const user = await newUser(t, { eid: 'AUTO_COMPLETE', accounts: 1 });
      const refresh_token = (await tpp.tokens({ flow: 'authorize', user })).refresh_token as string;
      for (let use = 1; use <= 3; use++) expect(hintsOf(await tpp.refresh(refresh_token).expect(200))).toEqual([]);
      expect(hintsOf(await tpp.refresh(refresh_token).expect(200))).toEqual(['REFRESH_LAST_USE_TODAY']);
      expect(hintsOf(await tpp.refresh(refresh_token).expect(400))).toEqual(['REFRESH_LIMIT_REACHED']);
    });

    it('KYC_REQUIRED (bank §4.2 rule 1): a grant refused for a user who has not answered KYC', async () => {
      const user = await newUser(t, { kyc: false });
      const res = await tpp.nonAuthenticated(user).expect(403);
      expect(hintsOf(res)).toEqual(['KYC_REQUIRED']);
    });

    it('KYC_REQUIRED names an admin call that works as written, in the caller\'s own sandbox (contract §8, §14)', async () => {
      const sandbox = (await t.admin.post('/sandboxes', { name: 'kyc hint' }).expect(201)).body as { sandbox_id: string; admin_key: string };
      const prefix = `/sandboxes/${sandbox.sandbox_id}`;
      const user = newPersonalNumber();
      await t.http.put(`${prefix}/admin/users/${user}`).set('Authorization', `Bearer ${sandbox.admin_key}`).send({ name: 'Karin Kund', kyc_completed: false }).expect(201);
      const refused = await t.http.post(`${prefix}/psd2/auth/1.0/token`).set(tpp.headers()).type('form').send({ grant_type: 'non_authenticated_token', user_id: user }).expect(403);
      await t.app.get(JournalWriter).flush();
      const recorded = (await t.http.get(`${prefix}/admin/requests/${refused.headers['x-request-id']}`).set('Authorization', `Bearer ${sandbox.admin_key}`).expect(200)).body;
      const call = /PUT (\S+) with (\{.*\})\.$/.exec(recorded.hints[0].message);
      expect(call?.[1]).toBe(`${prefix}/admin/users/${user}`);
      // Done as the hint says, the next grant goes through.
      await t.http.put(call![1]).set('Authorization', `Bearer ${sandbox.admin_key}`).send(JSON.parse(call![2])).expect(200);
      await t.http.post(`${prefix}/psd2/auth/1.0/token`).set(tpp.headers()).type('form').send({ grant_type: 'non_authenticated_token', user_id: user }).expect(200);
      await t.admin.delete(`/sandboxes/${sandbox.sandbox_id}`).expect(204);
    });

    it('KYC_REQUIRED at the enterprise token endpoint too: an end-user token refused for a user without KYC (contract §2, §14)', async () => {
      const key = (await newPartner(t)).api_key;
      const user = await newUser(t, { kyc: false });
      const partner = { Authorization: `Bearer ${key}` };
      const { pending_authorization_code } = (
        await t.http.get('/api/auth/1.0/authorize').set(partner).query({ client_id: 'app', response_type: 'pending_code', scope: 'loan.read', user_id: user }).expect(200)
      ).body;
      const refused = await t.http.post('/api/auth/1.0/token').set(partner).type('form').send({ grant_type: 'pending_authorization_code', pending_code: pending_authorization_code });
      expectOAuthError(refused, 403, 'kyc_required');
      expect(hintsOf(refused)).toEqual(['KYC_REQUIRED']);
    });
  });

  describe('partner signing (bank §3.2, §7.2; contract §11)', () => {
    async function participant(eid: string) {
      const partner = await newPartner(t);
      const user = await newUser(t, { eid });
      const [registered] = await t.get(ParticipantService).register({ kind: 'test_process', id: randomUUID(), partnerId: partner.partner_id }, [user]);
      const call = (path: string, ip = IP_A) =>
        t.http.post(`/signing/1.0/${path}`).set({ Authorization: `Bearer ${partner.api_key}`, 'X-Forwarded-For': ip }).send({ participant_id: registered.id });
      return { call };
    }

    it('SIGNING_RETRY_WITHOUT_CANCEL (bank §7.2): a same-IP start refused with 409; the next start succeeds', async () => {
      const { call } = await participant('MANUAL');
      expect(hintsOf(await call('start').expect(200))).toEqual([]);
      expect(hintsOf(await call('start').expect(409))).toEqual(['SIGNING_RETRY_WITHOUT_CANCEL']);
      expect(hintsOf(await call('start').expect(200))).toEqual([]);
    });

    it('SIGNING_BLOCKED (bank §7.2, contract §11): a start or cancel refused during a block', async () => {
      const { call } = await participant('MANUAL');
      await call('start', IP_A).expect(200);
      expect(hintsOf(await call('start', IP_B).expect(409))).toEqual([]);
      expect(hintsOf(await call('start', IP_A).expect(409))).toEqual(['SIGNING_BLOCKED']);
      expect(hintsOf(await call('cancel', IP_A).expect(409))).toEqual(['SIGNING_BLOCKED']);
    });

    it('START_AFTER_COLLECT_ERROR (bank §3.2): collect called again after COLLECT_ERROR', async () => {
      const { call } = await participant('COLLECT_ERROR');
      await call('start').expect(200);
      const first = await call('collect').expect(200);
      expect(first.body).toEqual({ status: 'COLLECT_ERROR' });
      expect(hintsOf(first)).toEqual([]);
      expect(hintsOf(await call('collect').expect(200))).toEqual(['START_AFTER_COLLECT_ERROR']);
    });

    it('POLLED_AFTER_FINAL applies to collect too (bank §3.1)', async () => {
      const { call } = await participant('AUTO_COMPLETE');
      await call('start').expect(200);
      expect(hintsOf(await call('collect').expect(200))).toEqual([]);
      await t.clock.advance(11);
      expect(hintsOf(await call('collect').expect(200))).toEqual(['POLLED_AFTER_FINAL']);
    });
  });

  it('DEPRECATED_PATH (contract §12): a retired path used before its end names the successor', async () => {
    await t.clock.set('2024-03-01T12:00:00+01:00', true);
    const partner = await newPartner(t);
    const res = await t.http.post('/api/signing/1.0/collect').set({ Authorization: `Bearer ${partner.api_key}` }).send({ participant_id: randomUUID() });
    expect(res.status).toBe(404);
    expect(hintsOf(res)).toEqual(['DEPRECATED_PATH']);
  });

  it('the header lists every hint of a response once', async () => {
    // A narrower scope (informational) on a start: one code, once, however often the rule is checked.
    const user = await newUser(t, { eid: 'AUTO_COMPLETE' });
    const res = await tpp.start({ user, scopes: 'PIS', body: { end_user_ip: PSU_IP, start_mode: 'AUTO_START', scopes: 'PIS' } }).expect(200);
    expect(res.headers['sandbox-hints']).toBe('SCOPE_NARROWER_THAN_CERTIFICATE');
  });
});
