import { expectProblem, expectValidationFailed } from './support/problems';
import { bearer, certificate, newPsu, Psd2Client, type Psu } from './support/psd2';
import { BASE_TIME, createTestApp, TestApp } from './support/test-app';

describe('AIS v2 (bank §4.2; contract §5, §10)', () => {
  let t: TestApp;
  let psu: Psu;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp({ frozenAt: BASE_TIME });
    psu = await newPsu(t, { accounts: 2, balance: 2500.5 });
    token = await psu.token();
  });
  afterAll(() => t.close());

  const get = (path: string, tok = token, extra: Record<string, string | undefined> = {}, client = psu.tpp) => t.http.get(path).set(bearer(client, tok, extra));

  it('GET /v2/accounts-numbers lists the user\'s account numbers', async () => {
    const res = await get('/v2/accounts-numbers').expect(200);
    expect(res.body).toEqual({ account_numbers: psu.accounts });
  });

  it('GET /v2/accounts lists { account_number, name, currency, balance, available_balance } as JSON numbers (contract §10)', async () => {
    const res = await get('/v2/accounts').expect(200);
    expect(res.body).toEqual({
      accounts: psu.accounts.map((n, i) => ({ account_number: n, name: `Konto ${i}`, currency: 'SEK', balance: 2500.5, available_balance: 2500.5 })),
    });
  });

  it('GET /v2/accounts/{accountNumber} adds transactions (none yet)', async () => {
    const res = await get(`/v2/accounts/${psu.accounts[0]}`).expect(200);
    expect(res.body).toMatchObject({ account_number: psu.accounts[0], transactions: [] });
  });

  it('answers 404 for another user\'s account and for an unknown one; 400 for a malformed number (contract §2)', async () => {
    const other = await newPsu(t);
    expectProblem(await get(`/v2/accounts/${other.accounts[0]}`), 404, 'NOT_FOUND');
    expectProblem(await get(`/v2/accounts/${other.accounts[0]}/transfers`), 404, 'NOT_FOUND');
    expectProblem(await get('/v2/accounts/92500000000'), 404, 'NOT_FOUND');
    expectValidationFailed(await get('/v2/accounts/abc'), 'accountNumber');
  });

  it('the authorize and non-authenticated tokens read the same accounts (§4.2 rule 4)', async () => {
    const viaAuthorize = await get('/v2/accounts', await psu.token('authorize', 'AIS')).expect(200);
    const viaNonAuth = await get('/v2/accounts', await psu.token('non_authenticated')).expect(200);
    expect(viaAuthorize.body).toEqual(viaNonAuth.body);
  });

  it('with a non-authenticated token PSU-IP-Address is mandatory; with an authenticated one it is not (§4.2, §5.9)', async () => {
    const restricted = await psu.token('non_authenticated');
    expectValidationFailed(await get('/v2/accounts', restricted, { 'PSU-IP-Address': undefined }), 'PSU-IP-Address');
    expectValidationFailed(await get('/v2/accounts', restricted, { 'PSU-IP-Address': 'not-an-ip' }), 'PSU-IP-Address');
    await get('/v2/accounts', token, { 'PSU-IP-Address': undefined }).expect(200);
  });

  it('a token without AIS is 403 SCOPE_NOT_GRANTED (contract §5)', async () => {
    expectProblem(await get('/v2/accounts', await psu.token('authenticate', 'PIS')), 403, 'SCOPE_NOT_GRANTED');
  });

  it('a certificate without PSP_AI is 403 ROLE_NOT_IN_CERTIFICATE (contract §5)', async () => {
    const org = 'PSDSE-FINA-31313';
    const full = new Psd2Client(t, await certificate(['PSP_AI', 'PSP_PI'], org));
    const aisPsu = await newPsu(t, { tpp: full });
    const aisToken = await aisPsu.token();
    const piOnly = new Psd2Client(t, await certificate(['PSP_PI'], org));
    expectProblem(await get('/v2/accounts', aisToken, {}, piOnly), 403, 'ROLE_NOT_IN_CERTIFICATE');
  });

  it('answers 401 without a token or with another TPP\'s (contract §3)', async () => {
    expectProblem(await t.http.get('/v2/accounts').set(psu.tpp.headers()), 401);
    expectProblem(await get('/v2/accounts', token, {}, await Psd2Client.create(t)), 401);
  });

  describe('funds check GET /v2/accounts/{accountNumber}/{currency}/{amount}', () => {
    it('answers whether the available balance covers the amount', async () => {
      expect((await get(`/v2/accounts/${psu.accounts[0]}/SEK/2500.50`).expect(200)).body).toEqual({ funds_available: true });
      expect((await get(`/v2/accounts/${psu.accounts[0]}/SEK/2500.51`).expect(200)).body).toEqual({ funds_available: false });
      expect((await get(`/v2/accounts/${psu.accounts[0]}/SEK/100`).expect(200)).body).toEqual({ funds_available: true });
    });

    it('answers false in another currency than the account\'s', async () => {
      expect((await get(`/v2/accounts/${psu.accounts[0]}/EUR/1`).expect(200)).body).toEqual({ funds_available: false });
    });

    it('refuses a currency that is not three capitals or an amount without a dot decimal with 400 (contract §10)', async () => {
      expectValidationFailed(await get(`/v2/accounts/${psu.accounts[0]}/sek/1`), 'currency');
      expectValidationFailed(await get(`/v2/accounts/${psu.accounts[0]}/SEK/1,50`), 'amount');
      expectValidationFailed(await get(`/v2/accounts/${psu.accounts[0]}/SEK/1.505`), 'amount');
    });
  });
});
