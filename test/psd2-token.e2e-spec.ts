import { DataSource } from 'typeorm';
import { certificate, expectOAuthError, newUser, psd2App, Psd2Client } from './support/psd2';
import { describeOnServer } from './support/server-only';
import { BASE_TIME, closeApps, TestApp, twoInstances } from './support/test-app';

const TOKEN = /^[A-Za-z0-9_-]{43}$/;

describe('POST /psd2/auth/1.0/token (bank §2.4, §4.1, §5, §7.1; contract §2, §5)', () => {
  let t: TestApp;
  let tpp: Psd2Client;
  beforeAll(async () => ({ t, tpp } = await psd2App()));
  afterAll(() => t.close());
  beforeEach(() => t.clock.freeze());

  describe('grant_type=pending_authorization_code', () => {
    it('authenticate: a 1800 s bearer token with the asked scopes and never a refresh token (§4.1, §5.5)', async () => {
      const code = await tpp.completedCode({ user: await newUser(t) });
      const res = await tpp.exchange(code).expect(200);
      expect(res.body).toEqual({ access_token: expect.stringMatching(TOKEN), expires_in: 1800, token_type: 'bearer', scope: 'AIS PIS' });
      expect(res.headers['cache-control']).toBe('no-store');
    });

    it('authorize with AIS: a 300 s token plus a refresh token valid 15552000 s (180 days) (§4.1, contract §5)', async () => {
      const code = await tpp.completedCode({ flow: 'authorize', user: await newUser(t), scopes: 'AIS' });
      const res = await tpp.exchange(code).expect(200);
      expect(res.body).toEqual({
        access_token: expect.stringMatching(TOKEN),
        expires_in: 300,
        token_type: 'bearer',
        scope: 'AIS',
        refresh_token: expect.stringMatching(TOKEN),
        refresh_token_expires_in: 15552000,
      });
    });

    it('authorize with PIS alone gets no refresh token (contract §5)', async () => {
      const code = await tpp.completedCode({ flow: 'authorize', user: await newUser(t), scopes: 'PIS' });
      const res = await tpp.exchange(code).expect(200);
      expect(res.body).toEqual({ access_token: expect.any(String), expires_in: 300, token_type: 'bearer', scope: 'PIS' });
    });

    it('is single use: a second exchange is invalid_grant (contract §2)', async () => {
      const code = await tpp.completedCode({ user: await newUser(t) });
      await tpp.exchange(code).expect(200);
      expectOAuthError(await tpp.exchange(code), 400, 'invalid_grant');
    });

    it('a pending code not yet COMPLETE is authorization_pending (§7.1 case 2)', async () => {
      const { pendingCode } = await tpp.pendingCode({ user: await newUser(t, { eid: 'MANUAL' }) });
      expectOAuthError(await tpp.exchange(pendingCode), 400, 'authorization_pending');
    });

    it('FAILED with EXPIRED_TRANSACTION is expired_token (§7.1 case 3)', async () => {
      const { pendingCode, autoStartToken } = await tpp.pendingCode({ user: await newUser(t, { eid: 'MANUAL' }) });
      await t.http.post('/sandbox/eid/open').send({ token: autoStartToken }).expect(200);
      await t.clock.advance(180);
      expectOAuthError(await tpp.exchange(pendingCode), 400, 'expired_token');
    });

    it('the 5-minute exchange window is closed at exactly 5:00: a millisecond before it works, at 5:00 expired_token (contract §2, §6; bank §4.1)', async () => {
      const late = await tpp.completedCode({ user: await newUser(t) });
      const inTime = await tpp.completedCode({ user: await newUser(t) });
      await t.clock.advance(299.999);
      await tpp.exchange(inTime).expect(200);
      await t.clock.advance(0.001);
      expectOAuthError(await tpp.exchange(late), 400, 'expired_token');
    });

    it.each([['FAIL:USER_CANCEL'], ['FAIL:START_FAILED'], ['COLLECT_ERROR']])('FAILED (%s) is invalid_grant (contract §2)', async (eid) => {
      const { pendingCode } = await tpp.pendingCode({ user: await newUser(t, { eid }) });
      await tpp.status(pendingCode).expect(200);
      expectOAuthError(await tpp.exchange(pendingCode), 400, 'invalid_grant');
    });

    it('a cancelled pending code is invalid_grant (contract §2)', async () => {
      const { pendingCode } = await tpp.pendingCode({ user: await newUser(t, { eid: 'MANUAL' }) });
      await tpp.cancel(pendingCode).expect(204);
      expectOAuthError(await tpp.exchange(pendingCode), 400, 'invalid_grant');
    });

    it('an unknown pending code, or another TPP\'s, is invalid_grant (contract §2)', async () => {
      expectOAuthError(await tpp.exchange('0b4f3b8e-3c8e-4f43-9a43-0d6d3f1f6a11'), 400, 'invalid_grant');
      const code = await tpp.completedCode({ user: await newUser(t) });
      expectOAuthError(await (await Psd2Client.create(t)).exchange(code), 400, 'invalid_grant');
      await tpp.exchange(code).expect(200);
    });

    it('a user who has not answered the KYC questions gets 403 kyc_required (§4.2 rule 1, §7.1 case 6)', async () => {
      const code = await tpp.completedCode({ user: await newUser(t, { kyc: false }) });
      expectOAuthError(await tpp.exchange(code), 403, 'kyc_required');
    });

    it('the token goes to the user chosen in the simulator, not the one named at start (contract §4)', async () => {
      const named = await newUser(t, { eid: 'MANUAL' });
      const chosen = await newUser(t, { kyc: false });
      const { pendingCode, autoStartToken } = await tpp.pendingCode({ user: named });
      const opened = await t.http.post('/sandbox/eid/open').send({ token: autoStartToken, personal_number: chosen }).expect(200);
      await t.http.post(`/sandbox/eid/operations/${opened.body.operation_id}/complete`).expect(204);
      await tpp.status(pendingCode).expect(200);
      expectOAuthError(await tpp.exchange(pendingCode), 403, 'kyc_required');
    });

    it('a malformed pending_code is invalid_request', async () => {
      expectOAuthError(await tpp.token({ grant_type: 'pending_authorization_code', pending_code: 'abc' }), 400, 'invalid_request');
      expectOAuthError(await tpp.token({ grant_type: 'pending_authorization_code' }), 400, 'invalid_request');
    });
  });

  describe('grant_type=refresh_token (§4.1, §5.5, §7.1 cases 4–5; contract §5)', () => {
    async function refreshToken(): Promise<string> {
      const code = await tpp.completedCode({ flow: 'authorize', user: await newUser(t), scopes: 'AIS,PIS' });
      return (await tpp.exchange(code).expect(200)).body.refresh_token;
    }

    it('answers an AIS-only 300 s access token and does not rotate the refresh token', async () => {
      const rt = await refreshToken();
      const res = await tpp.refresh(rt).expect(200);
      expect(res.body).toEqual({ access_token: expect.stringMatching(TOKEN), expires_in: 300, token_type: 'bearer', scope: 'AIS' });
      await tpp.refresh(rt).expect(200);
    });

    it('is usable 4 times per Stockholm calendar day: the fifth is invalid_grant up to a millisecond before midnight, and from exactly 00:00 it works again (contract §5, §6)', async () => {
      await t.clock.freeze('2026-11-24T23:50:00+01:00');
      const rt = await refreshToken();
      for (let i = 0; i < 4; i++) await tpp.refresh(rt).expect(200);
      expectOAuthError(await tpp.refresh(rt), 400, 'invalid_grant');
      await t.clock.freeze('2026-11-24T23:59:59.999+01:00');
      expectOAuthError(await tpp.refresh(rt), 400, 'invalid_grant');
      await t.clock.freeze('2026-11-25T00:00:00+01:00');
      await tpp.refresh(rt).expect(200);
    });

    it('counts the Stockholm day, not the UTC day (contract §5)', async () => {
      await t.clock.freeze('2026-11-24T22:30:00Z'); // 23:30 in Stockholm
      const rt = await refreshToken();
      for (let i = 0; i < 4; i++) await tpp.refresh(rt).expect(200);
      await t.clock.freeze('2026-11-24T23:00:00Z'); // still 24 November in UTC, 25 November in Stockholm
      await tpp.refresh(rt).expect(200);
    });

    it('expires at exactly 15552000 s (180 days), when its consent lapses too; a millisecond before it works (§5.3, §5.5; contract §5, §6)', async () => {
      const rt = await refreshToken();
      await t.clock.advance(15552000 - 0.001);
      await tpp.refresh(rt).expect(200);
      await t.clock.advance(0.001);
      expectOAuthError(await tpp.refresh(rt), 400, 'invalid_grant');
    });

    it('another TPP\'s or an unknown refresh token is invalid_grant (contract §2)', async () => {
      const rt = await refreshToken();
      expectOAuthError(await (await Psd2Client.create(t)).refresh(rt), 400, 'invalid_grant');
      expectOAuthError(await tpp.refresh('no-such-refresh-token'), 400, 'invalid_grant');
    });

    it('is refused with 403 kyc_required once the user no longer has KYC (the gate applies to every grant)', async () => {
      const user = await newUser(t);
      const code = await tpp.completedCode({ flow: 'authorize', user, scopes: 'AIS' });
      const rt = (await tpp.exchange(code).expect(200)).body.refresh_token;
      await t.admin.put(`/admin/users/${user}`, { name: 'X', kyc_completed: false }).expect(200);
      expectOAuthError(await tpp.refresh(rt), 403, 'kyc_required');
    });

    it('a refusal without KYC spends none of the day\'s 4 uses and issues no access token (§4.2 rule 1, §5.5)', async () => {
      const user = await newUser(t);
      const code = await tpp.completedCode({ flow: 'authorize', user, scopes: 'AIS' });
      const rt = (await tpp.exchange(code).expect(200)).body.refresh_token;
      await tpp.refresh(rt).expect(200);
      const tokensOfUser = async () =>
        Number((await t.get(DataSource).query('SELECT count(*) AS n FROM psd2_access_token WHERE personal_number = $1', [user]))[0].n);
      const issued = await tokensOfUser();
      await t.admin.put(`/admin/users/${user}`, { name: 'X', kyc_completed: false }).expect(200);
      for (let i = 0; i < 3; i++) expectOAuthError(await tpp.refresh(rt), 403, 'kyc_required');
      expect(await tokensOfUser()).toBe(issued);
      await t.admin.put(`/admin/users/${user}`, { name: 'X', kyc_completed: true }).expect(200);
      for (let i = 0; i < 3; i++) await tpp.refresh(rt).expect(200);
      expectOAuthError(await tpp.refresh(rt), 400, 'invalid_grant');
      expect(await tokensOfUser()).toBe(issued + 3);
    });
  });

  describe('grant_type=non_authenticated_token (§4.1, §4.2)', () => {
    it('answers a 1800 s token whose scopes are the certificate\'s roles', async () => {
      const user = await newUser(t);
      expect((await tpp.nonAuthenticated(user).expect(200)).body).toEqual({ access_token: expect.stringMatching(TOKEN), expires_in: 1800, token_type: 'bearer', scope: 'AIS PIS' });
      const aiOnly = new Psd2Client(t, await certificate(['PSP_AI']));
      expect((await aiOnly.nonAuthenticated(user).expect(200)).body.scope).toBe('AIS');
    });

    it('uses the TPP\'s configured lifetime (§8: 1800 s by default, per TPP; contract §8)', async () => {
      const org = 'PSDSE-FINA-70707';
      await t.admin.put(`/admin/tpps/${org}`, { non_authenticated_token_lifetime_s: 600 }).expect(200);
      const configured = new Psd2Client(t, await certificate(['PSP_AI'], org));
      expect((await configured.nonAuthenticated(await newUser(t)).expect(200)).body.expires_in).toBe(600);
    });

    it('accepts the 10-digit personal number form', async () => {
      const user = await newUser(t);
      await tpp.nonAuthenticated(`${user.slice(2, 8)}-${user.slice(8)}`).expect(200);
    });

    it('an unknown well-formed personal number is invalid_grant; a malformed one (bad check digit) invalid_request (contract §2)', async () => {
      expectOAuthError(await tpp.nonAuthenticated('195001011230'.slice(0, 11) + '3'), 400, 'invalid_request');
      expectOAuthError(await tpp.nonAuthenticated('199001011239'), 400, 'invalid_grant');
    });

    it('refuses a user without KYC with 403 kyc_required and issues nothing (§4.2 rule 1)', async () => {
      const user = await newUser(t, { kyc: false });
      expectOAuthError(await tpp.nonAuthenticated(user), 403, 'kyc_required');
      const stored = await t.get(DataSource).query('SELECT count(*) AS n FROM psd2_access_token WHERE personal_number = $1', [user]);
      expect(Number(stored[0].n)).toBe(0);
      await t.admin.put(`/admin/users/${user}`, { name: 'X', kyc_completed: true }).expect(200);
      await tpp.nonAuthenticated(user).expect(200);
    });
  });

  describe('request errors (contract §2 table)', () => {
    it('a missing or unreadable certificate is 401 invalid_client', async () => {
      const user = await newUser(t);
      expectOAuthError(await tpp.token({ grant_type: 'non_authenticated_token', user_id: user }, { 'X-PSD2-CLIENT-TEST-CERT': undefined }), 401, 'invalid_client');
      expectOAuthError(await tpp.token({ grant_type: 'non_authenticated_token', user_id: user }, { 'X-PSD2-CLIENT-TEST-CERT': 'Zm9v' }), 401, 'invalid_client');
    });

    it('a missing or invalid PSU-IP-Address is invalid_request', async () => {
      const user = await newUser(t);
      expectOAuthError(await tpp.token({ grant_type: 'non_authenticated_token', user_id: user }, { 'PSU-IP-Address': undefined }), 400, 'invalid_request');
      expectOAuthError(await tpp.token({ grant_type: 'non_authenticated_token', user_id: user }, { 'PSU-IP-Address': '1.2.3' }), 400, 'invalid_request');
    });

    it('a body that is not form-urlencoded is invalid_request', async () => {
      const res = await t.http.post('/psd2/auth/1.0/token').set(tpp.headers()).send({ grant_type: 'non_authenticated_token', user_id: await newUser(t) });
      expectOAuthError(res, 400, 'invalid_request');
    });

    it('an unknown grant_type is unsupported_grant_type; a missing one invalid_request', async () => {
      expectOAuthError(await tpp.token({ grant_type: 'password' }), 400, 'unsupported_grant_type');
      expectOAuthError(await tpp.token({}), 400, 'invalid_request');
    });

    it('ignores unknown form parameters (RFC 6749 §3.2)', async () => {
      await tpp.token({ grant_type: 'non_authenticated_token', user_id: await newUser(t), client_id: 'x', scope: 'whatever' }).expect(200);
    });

    it('answers a body over 1 MB with 413 invalid_request, not a problem (contract §2 table)', async () => {
      const res = await tpp.token({ grant_type: 'non_authenticated_token', user_id: 'x'.repeat(1024 * 1024) });
      expectOAuthError(res, 413, 'invalid_request');
    });

    it('stores only SHA-256 of access and refresh tokens (contract §5)', async () => {
      const code = await tpp.completedCode({ flow: 'authorize', user: await newUser(t), scopes: 'AIS' });
      const body = (await tpp.exchange(code).expect(200)).body;
      const dump = JSON.stringify(await t.get(DataSource).query('SELECT * FROM psd2_access_token')) + JSON.stringify(await t.get(DataSource).query('SELECT * FROM psd2_refresh_token'));
      expect(dump).not.toContain(body.access_token);
      expect(dump).not.toContain(body.refresh_token);
    });

    it('never logs the pending_code or refresh_token form fields', async () => {
      const code = await tpp.completedCode({ flow: 'authorize', user: await newUser(t), scopes: 'AIS' });
      const { refresh_token } = (await tpp.exchange(code).expect(200)).body;
      await tpp.refresh(refresh_token).expect(200);
      const logs = JSON.stringify(t.logs);
      expect(logs).not.toContain(code);
      expect(logs).not.toContain(refresh_token);
    });
  });
});

describeOnServer('token races on the PostgreSQL server (DEVELOPERS.md: races are the database\'s job)', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => ([a, b] = await twoInstances({ frozenAt: BASE_TIME })));
  afterAll(() => closeApps(a, b));

  it('20 concurrent refreshes of one token on two instances: exactly 4 succeed that day (§5.5)', async () => {
    const cert = await certificate();
    const onA = new Psd2Client(a, cert);
    const onB = new Psd2Client(b, cert);
    const code = await onA.completedCode({ flow: 'authorize', user: await newUser(a), scopes: 'AIS' });
    const rt = (await onA.exchange(code).expect(200)).body.refresh_token;
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? onA : onB).refresh(rt)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(4);
    expect(results.filter((r) => r.status === 400 && r.body.error === 'invalid_grant')).toHaveLength(16);
  });

  it('10 concurrent exchanges of one pending code on two instances: exactly one succeeds (contract §5: single use)', async () => {
    const cert = await certificate();
    const onA = new Psd2Client(a, cert);
    const onB = new Psd2Client(b, cert);
    const code = await onA.completedCode({ user: await newUser(a) });
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? onA : onB).exchange(code)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 400 && r.body.error === 'invalid_grant')).toHaveLength(9);
  });

  it('concurrent QR_CODE status calls within one second: exactly one is answered (§4.1 rule 2)', async () => {
    const cert = await certificate();
    const onA = new Psd2Client(a, cert);
    const onB = new Psd2Client(b, cert);
    const { pendingCode } = await onA.pendingCode({ user: await newUser(a, { eid: 'MANUAL' }), mode: 'QR_CODE' });
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? onA : onB).status(pendingCode)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 429)).toHaveLength(9);
  });
});
