import type { Response, Test } from 'supertest';
import { newPartner } from './support/fixtures';
import { expectValidationFailed } from './support/problems';
import { newPsu, PSU_IP, type Psu } from './support/psd2';
import { ADMIN_KEY, createTestApp, TestApp } from './support/test-app';

const INVALID_REQUEST = 'Bearer realm="sandbox", error="invalid_request"';

/** 400 VALIDATION_FAILED naming access_token, with RFC 6750 §3.1's challenge (contract §2). */
function expectBearerRefused(res: Response): void {
  expectValidationFailed(res, 'access_token');
  expect(res.headers['www-authenticate']).toBe(INVALID_REQUEST);
}

/** A bearer route: how to call it with extra headers, a query string and an optional body. */
interface BearerRoute {
  name: string;
  /** The route's own headers (a TPP's certificate, PSU-IP-Address), without the bearer. */
  headers: () => Record<string, string>;
  /** A valid bearer value of the route. */
  value: () => string;
  get: (query: string, headers: Record<string, string>) => Test;
  post: (query: string, headers: Record<string, string>) => Test;
}

/**
 * Contract §2 (RFC 6750 §2, §3.1): a bearer credential given more than once or not as one string is
 * 400 VALIDATION_FAILED naming access_token with `WWW-Authenticate: Bearer realm="sandbox",
 * error="invalid_request"`, never a 500 — on every route that reads a bearer.
 */
describe('contract §2: a bearer credential given more than once or not as one string is 400 naming access_token (RFC 6750 §3.1)', () => {
  let t: TestApp;
  let psu: Psu;
  let psd2Token: string;
  let partnerKey: string;
  const routes: BearerRoute[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    psu = await newPsu(t);
    psd2Token = await psu.token();
    partnerKey = (await newPartner(t)).api_key;
    routes.push(
      {
        name: 'a PSD2 route (AIS read, transfer signing start)',
        headers: () => psu.tpp.headers({ 'PSU-IP-Address': PSU_IP }),
        value: () => psd2Token,
        get: (query, headers) => t.http.get(`/v2/accounts${query}`).set(headers),
        post: (query, headers) => t.http.post(`/psd2/savings/3.0/transfers/signing/start${query}`).set(headers),
      },
      {
        name: 'a partner route (interest rates, signing start)',
        headers: () => ({}),
        value: () => partnerKey,
        get: (query, headers) => t.http.get(`/api/interest-rates/2.0/effective-interest-rate${query}`).set(headers),
        post: (query, headers) => t.http.post(`/signing/1.0/start${query}`).set(headers),
      },
      {
        name: 'an admin route (clock, jobs run)',
        headers: () => ({}),
        value: () => ADMIN_KEY,
        get: (query, headers) => t.http.get(`/admin/clock${query}`).set(headers),
        post: (query, headers) => t.http.post(`/admin/jobs/run${query}`).set(headers),
      },
    );
  });
  afterAll(() => t.close());

  const each = async (check: (route: BearerRoute) => Promise<void>) => {
    expect(routes).toHaveLength(3);
    for (const route of routes) await check(route);
  };

  it('a repeated access_token query parameter is 400 naming access_token, not a 500 (contract §2)', () =>
    each(async (route) => {
      const value = encodeURIComponent(route.value());
      expectBearerRefused(await route.get(`?access_token=${value}&access_token=${value}`, route.headers()));
      expectBearerRefused(await route.get(`?access_token=${value}&access_token=other`, route.headers()));
    }));

  it('the Authorization header together with an access_token in the query is 400 naming access_token (contract §2)', () =>
    each(async (route) => {
      const value = route.value();
      const headers = { ...route.headers(), Authorization: `Bearer ${value}` };
      expectBearerRefused(await route.get(`?access_token=${encodeURIComponent(value)}`, headers));
      // Given at all: an empty parameter beside the header is a second place too.
      expectBearerRefused(await route.get('?access_token=', headers));
    }));

  it.each([
    ['an array', (value: string) => [value]],
    ['an array of two', (value: string) => [value, value]],
    ['an object', (value: string) => ({ value })],
    ['a number', () => 42],
    ['a boolean', () => true],
  ])('a JSON access_token that is %s is 400 naming access_token (contract §2)', (_kind, shape) =>
    each(async (route) => {
      expectBearerRefused(await route.post('', route.headers()).send({ access_token: shape(route.value()) }));
    }),
  );

  it('the Authorization header together with an access_token in the JSON body is 400 naming access_token (contract §2)', () =>
    each(async (route) => {
      const value = route.value();
      expectBearerRefused(await route.post('', { ...route.headers(), Authorization: `Bearer ${value}` }).send({ access_token: value }));
    }));

  it('an access_token in the body and in the query is 400 naming access_token (contract §2)', () =>
    each(async (route) => {
      const value = route.value();
      expectBearerRefused(await route.post(`?access_token=${encodeURIComponent(value)}`, route.headers()).send({ access_token: value }));
    }));

  it('a form-encoded body with access_token repeated, or beside the Authorization header, is 400 naming access_token (contract §2)', () =>
    each(async (route) => {
      const value = encodeURIComponent(route.value());
      expectBearerRefused(await route.post('', route.headers()).type('form').send(`access_token=${value}&access_token=${value}`));
      expectBearerRefused(await route.post('', { ...route.headers(), Authorization: `Bearer ${route.value()}` }).type('form').send(`access_token=${value}`));
    }));

  it('a bearer given once, in the header or as one access_token string, is read as before (RFC 6750 §2)', async () => {
    await t.http.get('/admin/clock').set('Authorization', `Bearer ${ADMIN_KEY}`).expect(200);
    await t.http.get(`/admin/clock?access_token=${encodeURIComponent(ADMIN_KEY)}`).expect(200);
    await t.http.get(`/v2/accounts?access_token=${encodeURIComponent(psd2Token)}`).set(psu.tpp.headers()).expect(200);
    const rates = await t.http.get(`/api/interest-rates/2.0/effective-interest-rate?access_token=${encodeURIComponent(partnerKey)}`);
    expect(rates.status).not.toBe(401);
    expect(rates.status).toBeLessThan(500);
  });

  it('the enterprise token endpoint answers RFC 6749 invalid_request with the invalid_request challenge for a repeated access_token in its form, or one beside the header (contract §2)', async () => {
    const token = (form: string, headers: Record<string, string> = {}) => t.http.post('/api/auth/1.0/token').set(headers).type('form').send(form);
    for (const res of [
      await token(`grant_type=client_credentials&access_token=${partnerKey}&access_token=${partnerKey}`),
      await token(`grant_type=client_credentials&access_token=${partnerKey}`, { Authorization: `Bearer ${partnerKey}` }),
    ]) {
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'invalid_request', error_description: expect.stringContaining('access_token') });
      expect(res.headers['www-authenticate']).toBe(INVALID_REQUEST);
      expect(res.headers['cache-control']).toBe('no-store');
    }
  });

  it('the journal read with a partner key, the loan-application status and the enterprise authorize call refuse a repeated access_token the same way (contract §2)', async () => {
    const key = encodeURIComponent(partnerKey);
    expectBearerRefused(await t.http.get(`/sandbox/requests?access_token=${key}&access_token=${key}`));
    expectBearerRefused(await t.http.get('/sandbox/requests?access_token=x').set('Authorization', `Bearer ${partnerKey}`));
    expectBearerRefused(await t.http.get(`/api/loan-application/2.0/mortgages/status/0b4f3b8e-3c8e-4f43-9a43-0d6d3f1f6a11?access_token=${key}&access_token=${key}`));
    expectBearerRefused(
      await t.http.get(`/api/auth/1.0/authorize?client_id=c&response_type=pending_code&scope=loan.read&user_id=199001011239&access_token=${key}&access_token=${key}`),
    );
    expectBearerRefused(await t.http.get(`/sandboxes?access_token=${encodeURIComponent(ADMIN_KEY)}&access_token=x`));
  });

  it('none of these refusals is logged as an unhandled error (contract §2: never a 500)', async () => {
    const value = encodeURIComponent(ADMIN_KEY);
    const before = t.logs.length;
    expectBearerRefused(await t.http.get(`/admin/clock?access_token=${value}&access_token=${value}`));
    expectBearerRefused(await t.http.post('/admin/jobs/run').send({ access_token: { nested: [1, 2] } }));
    expect(t.logs.slice(before).filter((line) => line.msg === 'unhandled error')).toEqual([]);
  });
});
