import type { Response } from 'supertest';
import { newPartner } from './support/fixtures';
import { expectProblem } from './support/problems';
import { bearer, newPsu, newUser, Psd2Client, type Psu } from './support/psd2';
import { ADMIN_KEY, BASE_TIME, createTestApp, TestApp } from './support/test-app';

const REALM = 'Bearer realm="sandbox"';
const INVALID_TOKEN = 'Bearer realm="sandbox", error="invalid_token"';
const UNKNOWN_ID = '0b4f3b8e-3c8e-4f43-9a43-0d6d3f1f6a11';

/** A 401 problem whose challenge is exactly `challenge` (RFC 6750 §3, contract §2). */
function expectChallenge(res: Response, challenge: string): void {
  expectProblem(res, 401, 'UNAUTHORIZED');
  expect(res.headers['www-authenticate']).toBe(challenge);
}

/**
 * Contract §2: every 401 outside the PSD2 token endpoint carries `WWW-Authenticate: Bearer
 * realm="sandbox"`, plus `error="invalid_token"` exactly when a bearer value was sent and refused
 * (unknown, expired, another TPP's, the wrong kind) (RFC 6750 §3).
 */
describe('WWW-Authenticate on every 401 (RFC 6750 §3; contract §2)', () => {
  let t: TestApp;
  let partnerKey: string;
  let psu: Psu;
  beforeAll(async () => {
    t = await createTestApp({ frozenAt: BASE_TIME });
    partnerKey = (await newPartner(t)).api_key;
    psu = await newPsu(t);
  });
  afterAll(() => t.close());

  it('admin routes: no key is a bare challenge; a wrong key is invalid_token (contract §2, §3)', async () => {
    expectChallenge(await t.http.get('/admin/clock'), REALM);
    expectChallenge(await t.http.get('/admin/clock').set('Authorization', 'Basic YWRtaW46YWRtaW4='), REALM);
    expectChallenge(await t.http.get('/admin/clock').set('Authorization', `Bearer ${ADMIN_KEY}x`), INVALID_TOKEN);
    const ok = await t.http.get('/admin/clock').set('Authorization', `Bearer ${ADMIN_KEY}`).expect(200);
    expect(ok.headers['www-authenticate']).toBeUndefined();
  });

  it('partner routes: no key is a bare challenge; an unknown key or an enterprise end-user token (the wrong kind) is invalid_token (contract §2, §3)', async () => {
    const rates = '/api/interest-rates/2.0/effective-interest-rate';
    expectChallenge(await t.http.get(rates), REALM);
    expectChallenge(await t.http.post('/signing/1.0/start').send({}), REALM);
    expectChallenge(await t.http.get(rates).set('Authorization', 'Bearer no-such-partner-key-000000'), INVALID_TOKEN);
    expectChallenge(await t.http.post('/partner/signing/1.0/start').set('Authorization', 'Bearer no-such-partner-key-000000').send({}), INVALID_TOKEN);

    const user = await newUser(t);
    const { pending_authorization_code } = (
      await t.http
        .get('/api/auth/1.0/authorize')
        .set('Authorization', `Bearer ${partnerKey}`)
        .query({ client_id: 'app', response_type: 'pending_code', scope: 'loan.read', user_id: user })
        .expect(200)
    ).body;
    const endUser = (
      await t.http.post('/api/auth/1.0/token').set('Authorization', `Bearer ${partnerKey}`).type('form').send({ grant_type: 'pending_authorization_code', pending_code: pending_authorization_code }).expect(200)
    ).body.access_token;
    expectChallenge(await t.http.get(rates).set('Authorization', `Bearer ${endUser}`), INVALID_TOKEN);
  });

  it('the loan-application status: no credential is a bare challenge; an unknown bearer is invalid_token (contract §2, §3)', async () => {
    const status = `/api/loan-application/2.0/mortgages/status/${UNKNOWN_ID}`;
    expectChallenge(await t.http.get(status), REALM);
    expectChallenge(await t.http.get(status).set('Authorization', 'Bearer no-such-token-00000000000000'), INVALID_TOKEN);
  });

  it('the enterprise authorize call: no key is a bare challenge; a wrong key invalid_token (contract §2)', async () => {
    const query = { client_id: 'c', response_type: 'pending_code', scope: 'loan.read', user_id: '199001011239' };
    expectChallenge(await t.http.get('/api/auth/1.0/authorize').query(query), REALM);
    expectChallenge(await t.http.get('/api/auth/1.0/authorize').set('Authorization', 'Bearer wrong-key-0000000000000').query(query), INVALID_TOKEN);
  });

  it('reads one or more spaces after "Bearer" (RFC 6750 §2.1: credentials = "Bearer" 1*SP b64token) on every bearer route: PSD2, partner, enterprise, admin', async () => {
    const spaced = (value: string) => ({ Authorization: `Bearer   ${value}` });
    await t.http.get('/admin/clock').set('Authorization', `Bearer  ${ADMIN_KEY}`).expect(200);
    expectChallenge(await t.http.get('/admin/clock').set(spaced(`${ADMIN_KEY}x`)), INVALID_TOKEN);

    const status = `/api/loan-application/2.0/mortgages/status/${UNKNOWN_ID}`;
    expectProblem(await t.http.get(status).set(spaced(partnerKey)), 404, 'NOT_FOUND');
    expectChallenge(await t.http.get(status).set(spaced('no-such-partner-key-000000')), INVALID_TOKEN);

    const clientCredentials = (await t.http.post('/api/auth/1.0/token').set(spaced(partnerKey)).type('form').send({ grant_type: 'client_credentials' }).expect(200)).body.access_token;
    expectProblem(await t.http.get(status).set({ Authorization: `Bearer  ${clientCredentials}` }), 404, 'NOT_FOUND');

    const token = await psu.token();
    await t.http.get('/v2/accounts').set(psu.tpp.headers({ Authorization: `Bearer  ${token}` })).expect(200);
    expectChallenge(await t.http.get('/v2/accounts').set(psu.tpp.headers(spaced('no-such-access-token-0000000000000000000000'))), INVALID_TOKEN);
    // Still one token: spaces inside the credentials are no b64token.
    expectChallenge(await t.http.get('/v2/accounts').set(psu.tpp.headers({ Authorization: `Bearer  ${token} x` })), REALM);
  });

  describe('PSD2 routes', () => {
    it('certificate-only calls: a missing or unreadable certificate is a bare challenge (contract §2, §3)', async () => {
      expectChallenge(await t.http.post('/psd2/auth/3.0/authenticate').set('PSU-IP-Address', '192.0.2.10').send({}), REALM);
      expectChallenge(await t.http.post('/psd2/auth/3.0/status').set('X-PSD2-CLIENT-TEST-CERT', 'Zm9v').set('PSU-IP-Address', '192.0.2.10').send({}), REALM);
    });

    it('bearer calls: no token is a bare challenge; an unknown token is invalid_token (contract §2, §5)', async () => {
      expectChallenge(await t.http.get('/v2/accounts').set(psu.tpp.headers()), REALM);
      expectChallenge(await t.http.get('/v2/accounts').set(bearer(psu.tpp, 'no-such-access-token-0000000000000000000000')), INVALID_TOKEN);
    });

    it('another TPP\'s token is invalid_token (contract §2, §3)', async () => {
      const token = await psu.token();
      const other = await Psd2Client.create(t);
      expectChallenge(await t.http.get('/v2/accounts').set(bearer(other, token)), INVALID_TOKEN);
      const ok = await t.http.get('/v2/accounts').set(bearer(psu.tpp, token)).expect(200);
      expect(ok.headers['www-authenticate']).toBeUndefined();
    });

    it('an expired token is invalid_token (contract §2, §5)', async () => {
      const token = await psu.token('non_authenticated');
      await t.clock.advance(1801);
      expectChallenge(await t.http.get('/v2/accounts').set(bearer(psu.tpp, token)), INVALID_TOKEN);
    });

    it('a 403 (valid token, missing scope) carries no challenge (contract §2: 401 only)', async () => {
      const token = await psu.token('authenticate', 'PIS');
      const res = await t.http.get('/v2/accounts').set(bearer(psu.tpp, token));
      expectProblem(res, 403, 'SCOPE_NOT_GRANTED');
      expect(res.headers['www-authenticate']).toBeUndefined();
    });
  });
});
