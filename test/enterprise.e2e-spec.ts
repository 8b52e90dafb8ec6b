import { DataSource } from 'typeorm';
import { newPartner, partnerApp } from './support/fixtures';
import { expectProblem, expectValidationFailed } from './support/problems';
import { expectOAuthError, newUser } from './support/psd2';
import type { TestApp } from './support/test-app';

describe('enterprise authentication (bank §2.4, §4.6; contract §2, §3)', () => {
  let t: TestApp;
  let key: string;
  beforeAll(async () => ({ t, key } = await partnerApp()));
  afterAll(() => t.close());
  beforeEach(() => t.clock.freeze());

  const bearer = (value: string) => ({ Authorization: `Bearer ${value}` });
  const token = (form: Record<string, string>, credential = key) => t.http.post('/api/auth/1.0/token').set(bearer(credential)).type('form').send(form);
  const authorize = (query: Record<string, string>, credential = key) => t.http.get('/api/auth/1.0/authorize').set(bearer(credential)).query(query);

  async function loanApplication(applicant: string): Promise<string> {
    const res = await t.http.post('/api/loan-application/2.0/mortgages').set(bearer(key)).send({ applicants: [{ personal_number: applicant, yearly_income: 700_000 }], loan_amount: 1_000_000 }).expect(201);
    return res.body.id;
  }

  async function endUserToken(userId: string, scope = 'loan.read', credential = key): Promise<string> {
    const { pending_authorization_code } = (await authorize({ client_id: 'app', response_type: 'pending_code', scope, user_id: userId }, credential).expect(200)).body;
    return (await token({ grant_type: 'pending_authorization_code', pending_code: pending_authorization_code }, credential).expect(200)).body.access_token;
  }

  describe('grant_type=client_credentials', () => {
    it('answers a 300 s bearer token with auth_method client_credentials (§2.4, §4.6)', async () => {
      const res = await token({ grant_type: 'client_credentials' }).expect(200);
      expect(res.body).toEqual({ access_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), expires_in: 300, token_type: 'bearer', auth_method: 'client_credentials' });
      expect(res.headers['cache-control']).toBe('no-store');
    });

    it('the token stands for the partner on the partner routes, until it expires at exactly 300 s (contract §3, §6)', async () => {
      const cc = (await token({ grant_type: 'client_credentials' }).expect(200)).body.access_token;
      const id = await loanApplication(await newUser(t));
      await t.http.get(`/api/loan-application/2.0/mortgages/status/${id}`).set(bearer(cc)).expect(200);
      const applicant = await newUser(t);
      await t.http.post('/mortgage/2.0/pre-approval').set(bearer(cc)).send({ applicants: [{ personal_number: applicant, yearly_income: 1 }], loan_amount: 1 }).expect(201);
      await t.clock.advance(299.999);
      await t.http.get(`/api/loan-application/2.0/mortgages/status/${id}`).set(bearer(cc)).expect(200);
      await t.clock.advance(0.001);
      expectProblem(await t.http.get(`/api/loan-application/2.0/mortgages/status/${id}`).set(bearer(cc)), 401, 'UNAUTHORIZED');
    });

    it('an expired one keeps its 401 and invalid_token challenge, now with TOKEN_EXPIRED, on every partner route (bank §5.5; contract §2, §14)', async () => {
      const cc = (await token({ grant_type: 'client_credentials' }).expect(200)).body.access_token;
      const id = await loanApplication(await newUser(t));
      await t.clock.advance(300 + 12);
      const refused = [
        await t.http.get(`/api/loan-application/2.0/mortgages/status/${id}`).set(bearer(cc)),
        await t.http.post('/mortgage/2.0/pre-approval').set(bearer(cc)).send({ applicants: [{ personal_number: await newUser(t), yearly_income: 1 }], loan_amount: 1 }),
      ];
      for (const res of refused) {
        expectProblem(res, 401, 'UNAUTHORIZED');
        expect(res.headers['www-authenticate']).toBe('Bearer realm="sandbox", error="invalid_token"');
        expect(res.headers['sandbox-hints']).toBe('TOKEN_EXPIRED');
      }
      // The token endpoint takes the partner key only: there the token is no credential, and its expiry says nothing.
      const asKey = await token({ grant_type: 'client_credentials' }, cc);
      expectOAuthError(asKey, 401, 'invalid_client');
      expect(asKey.headers['sandbox-hints']).toBeUndefined();
    });

    it('sees only its own partner\'s resources (contract §3)', async () => {
      const id = await loanApplication(await newUser(t));
      const otherKey = (await newPartner(t)).api_key;
      const otherCc = (await token({ grant_type: 'client_credentials' }, otherKey).expect(200)).body.access_token;
      expectProblem(await t.http.get(`/api/loan-application/2.0/mortgages/status/${id}`).set(bearer(otherCc)), 404, 'NOT_FOUND');
    });
  });

  describe('authorize and the end-user token', () => {
    it('GET authorize answers { pending_authorization_code, autostart_token } for any client_id and any valid personal number (§4.6)', async () => {
      const res = await authorize({ client_id: 'anything at all', response_type: 'pending_code', scope: 'account.read,loan.read', user_id: '199001011239' }).expect(200);
      expect(res.body).toEqual({ pending_authorization_code: expect.stringMatching(/^[0-9a-f-]{36}$/), autostart_token: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    });

    it('refuses a personal number with a wrong check digit, an unknown scope or another response_type with 400 naming it', async () => {
      expectValidationFailed(await authorize({ client_id: 'c', response_type: 'pending_code', scope: 'loan.read', user_id: '199001011238' }), 'user_id');
      expectValidationFailed(await authorize({ client_id: 'c', response_type: 'pending_code', scope: 'loan.write', user_id: '199001011239' }), 'scope');
      expectValidationFailed(await authorize({ client_id: 'c', response_type: 'code', scope: 'loan.read', user_id: '199001011239' }), 'response_type');
      expectValidationFailed(await authorize({ response_type: 'pending_code', scope: 'loan.read', user_id: '199001011239' }), 'client_id');
    });

    it('the exchange answers a 300 s end-user token with auth_method authorize; the code is single use (invalid_grant)', async () => {
      const { pending_authorization_code } = (await authorize({ client_id: 'c', response_type: 'pending_code', scope: 'loan.read', user_id: '199001011239' }).expect(200)).body;
      const first = await token({ grant_type: 'pending_authorization_code', pending_code: pending_authorization_code }).expect(200);
      expect(first.body).toEqual({ access_token: expect.any(String), expires_in: 300, token_type: 'bearer', auth_method: 'authorize', scope: 'loan.read' });
      expectOAuthError(await token({ grant_type: 'pending_authorization_code', pending_code: pending_authorization_code }), 400, 'invalid_grant');
    });

    it('an unknown code or another partner\'s is invalid_grant; a malformed one invalid_request', async () => {
      expectOAuthError(await token({ grant_type: 'pending_authorization_code', pending_code: '0b4f3b8e-3c8e-4f43-9a43-0d6d3f1f6a11' }), 400, 'invalid_grant');
      const { pending_authorization_code } = (await authorize({ client_id: 'c', response_type: 'pending_code', scope: 'loan.read', user_id: '199001011239' }).expect(200)).body;
      const otherKey = (await newPartner(t)).api_key;
      expectOAuthError(await token({ grant_type: 'pending_authorization_code', pending_code: pending_authorization_code }, otherKey), 400, 'invalid_grant');
      expectOAuthError(await token({ grant_type: 'pending_authorization_code', pending_code: 'x' }), 400, 'invalid_request');
    });

    it('the 5-minute exchange window is closed at exactly 5:00: a millisecond before a code is exchanged, at 5:00 expired_token (contract §2, §6)', async () => {
      const code = async () => (await authorize({ client_id: 'c', response_type: 'pending_code', scope: 'loan.read', user_id: '199001011239' }).expect(200)).body.pending_authorization_code;
      const [inTime, late] = [await code(), await code()];
      await t.clock.advance(299.999);
      await token({ grant_type: 'pending_authorization_code', pending_code: inTime }).expect(200);
      await t.clock.advance(0.001);
      expectOAuthError(await token({ grant_type: 'pending_authorization_code', pending_code: late }), 400, 'expired_token');
    });

    it('a sandbox user who has not answered the KYC questions gets 403 kyc_required (contract §2)', async () => {
      const user = await newUser(t, { kyc: false });
      const { pending_authorization_code } = (await authorize({ client_id: 'c', response_type: 'pending_code', scope: 'loan.read', user_id: user }).expect(200)).body;
      expectOAuthError(await token({ grant_type: 'pending_authorization_code', pending_code: pending_authorization_code }), 403, 'kyc_required');
    });

    it('reads the status of that user\'s loan applications only; another user\'s is 404 (contract §3)', async () => {
      const user = await newUser(t);
      const mine = await loanApplication(user);
      const theirs = await loanApplication(await newUser(t));
      const endUser = await endUserToken(user);
      const res = await t.http.get(`/api/loan-application/2.0/mortgages/status/${mine}`).set(bearer(endUser)).expect(200);
      expect(res.body).toMatchObject({ id: mine, status: { type: 'AWAITING_SIGNATURE' } });
      expectProblem(await t.http.get(`/api/loan-application/2.0/mortgages/status/${theirs}`).set(bearer(endUser)), 404, 'NOT_FOUND');
    });

    it('an end-user token obtained with another partner\'s key does not read this partner\'s application of that user: 404 (contract §3)', async () => {
      const user = await newUser(t);
      const id = await loanApplication(user);
      const otherKey = (await newPartner(t)).api_key;
      const throughOther = await endUserToken(user, 'loan.read', otherKey);
      expectProblem(await t.http.get(`/api/loan-application/2.0/mortgages/status/${id}`).set(bearer(throughOther)), 404, 'NOT_FOUND');
      await t.http.get(`/api/loan-application/2.0/mortgages/status/${id}`).set(bearer(await endUserToken(user))).expect(200);
    });

    it('a co-applicant\'s end-user token reads the application too (contract §9)', async () => {
      const main = await newUser(t);
      const co = await newUser(t);
      const res = await t.http
        .post('/api/loan-application/2.0/mortgages')
        .set(bearer(key))
        .send({ applicants: [{ personal_number: main, yearly_income: 1 }, { personal_number: co, yearly_income: 1 }], loan_amount: 1 })
        .expect(201);
      await t.http.get(`/api/loan-application/2.0/mortgages/status/${res.body.id}`).set(bearer(await endUserToken(co))).expect(200);
    });

    it('an expired end-user token keeps its 401 and invalid_token challenge on the status, now with TOKEN_EXPIRED; where it is no credential its expiry says nothing (bank §5.5; contract §3, §14)', async () => {
      const user = await newUser(t);
      const id = await loanApplication(user);
      const endUser = await endUserToken(user);
      await t.clock.advance(300);
      const res = await t.http.get(`/api/loan-application/2.0/mortgages/status/${id}`).set(bearer(endUser));
      expectProblem(res, 401, 'UNAUTHORIZED');
      expect(res.headers['www-authenticate']).toBe('Bearer realm="sandbox", error="invalid_token"');
      expect(res.headers['sandbox-hints']).toBe('TOKEN_EXPIRED');
      const elsewhere = await t.http.delete(`/api/loan-application/2.0/mortgages/${id}`).set(bearer(endUser));
      expectProblem(elsewhere, 401, 'UNAUTHORIZED');
      expect(elsewhere.headers['sandbox-hints']).toBeUndefined();
    });

    it('without loan.read the end-user token is 403 SCOPE_NOT_GRANTED on the status', async () => {
      const user = await newUser(t);
      const id = await loanApplication(user);
      expectProblem(await t.http.get(`/api/loan-application/2.0/mortgages/status/${id}`).set(bearer(await endUserToken(user, 'account.read'))), 403, 'SCOPE_NOT_GRANTED');
    });

    it('anywhere else it is no credential: 401 (contract §3)', async () => {
      const user = await newUser(t);
      const id = await loanApplication(user);
      const endUser = await endUserToken(user);
      expectProblem(await t.http.delete(`/api/loan-application/2.0/mortgages/${id}`).set(bearer(endUser)), 401, 'UNAUTHORIZED');
      expectProblem(await t.http.post('/signing/1.0/collect').set(bearer(endUser)).send({ participant_id: id }), 401, 'UNAUTHORIZED');
      expectOAuthError(await token({ grant_type: 'client_credentials' }, endUser), 401, 'invalid_client');
    });

    it('stores only the SHA-256 of its tokens', async () => {
      const cc = (await token({ grant_type: 'client_credentials' }).expect(200)).body.access_token;
      expect(JSON.stringify(await t.get(DataSource).query('SELECT * FROM enterprise_token'))).not.toContain(cc);
    });
  });

  describe('token endpoint errors (contract §2 table)', () => {
    it('a missing or wrong partner key is 401 invalid_client; a client-credentials token is not a key', async () => {
      expectOAuthError(await t.http.post('/api/auth/1.0/token').type('form').send({ grant_type: 'client_credentials' }), 401, 'invalid_client');
      expectOAuthError(await token({ grant_type: 'client_credentials' }, 'wrong-key-0000000000000'), 401, 'invalid_client');
      const cc = (await token({ grant_type: 'client_credentials' }).expect(200)).body.access_token;
      expectOAuthError(await token({ grant_type: 'client_credentials' }, cc), 401, 'invalid_client');
    });

    it('an unknown grant_type is unsupported_grant_type; a JSON body invalid_request; unknown parameters are ignored', async () => {
      expectOAuthError(await token({ grant_type: 'password' }), 400, 'unsupported_grant_type');
      expectOAuthError(await t.http.post('/api/auth/1.0/token').set(bearer(key)).send({ grant_type: 'client_credentials' }), 400, 'invalid_request');
      await token({ grant_type: 'client_credentials', scope: 'x', client_id: 'y' }).expect(200);
    });

    it('authorize answers problem+json: 401 without the key', async () => {
      expectProblem(await t.http.get('/api/auth/1.0/authorize').query({ client_id: 'c', response_type: 'pending_code', scope: 'loan.read', user_id: '199001011239' }), 401, 'UNAUTHORIZED');
    });
  });
});
