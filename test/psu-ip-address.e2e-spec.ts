import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { ModulesContainer } from '@nestjs/core';
import type { Response } from 'supertest';
import { ACCESS_POLICY, type AccessPolicy } from '@app/common';
import { expectProblem, expectValidationFailed } from './support/problems';
import { bearer, expectOAuthError, newPsu, PSU_IP, type Psu } from './support/psd2';
import { newPartner } from './support/fixtures';
import { ADMIN_KEY, createTestApp, TestApp } from './support/test-app';

const TUESDAY = '2026-11-24T10:00:00+01:00';
const BANKGIRO = '5050-1055';
// (HTTP strips a header value's outer spaces, so ' 192.0.2.10' reaches the service well-formed.)
const MALFORMED = ['not-an-ip', '192.0.2.300', '', '192.0.2.10, 192.0.2.11', '2001:db8::g', '192.0.2.10/24'];
// The other tests send IPv4 (192.0.2.10) on every call.
const IPV6 = '2001:db8::1';

/** What one route needs for a successful call: a PSU with an account, open transfers and a signing. */
interface World {
  psu: Psu;
  account: string;
  /** An unsigned transfer and an unsigned recurring transfer of the PSU, ordered by its TPP. */
  transfer: string;
  recurring: string;
  /** A transfer signing started and not yet collected (its transfer is another one). */
  signing: string;
  toSign: string;
  pendingCode: string;
  /** Access tokens of the PSU by kind, made on first use. */
  tokens: Map<Kind, Promise<string>>;
}

type Kind = 'authenticate' | 'authorize' | 'non_authenticated';

/**
 * Every PSD2 route (contract §2): the one table the tests below iterate, checked against the routes
 * the application declares so a new route cannot be forgotten. `required`: 'every-call' (bank §4.1
 * calls, transfer signing start and collect) or 'non-authenticated' (optional but with such a token).
 */
interface Route {
  method: 'get' | 'post' | 'put' | 'delete';
  /** The route as declared (`:param` segments). */
  route: string;
  path: (w: World) => string;
  body?: (w: World) => object;
  form?: (w: World) => Record<string, string>;
  required: 'every-call' | 'non-authenticated';
  /** Status of a successful call with a well-formed header. */
  ok: number;
  /** Bearer routes: the token kinds it accepts (certificate-only routes: none). */
  tokens: Kind[];
  /** What of the World the call uses (the rest is not made). */
  needs?: Need[];
  headers?: (w: World) => Record<string, string>;
}
type Need = 'transfer' | 'recurring' | 'signing' | 'pendingCode';

const transferBody = (over: Record<string, unknown> = {}) => ({
  amount: 10,
  currency: 'SEK',
  transfer_date: '2026-11-25',
  recipient_account_number: BANKGIRO,
  recipient_name: 'Anna Svensson',
  ...over,
});
const AIS_TOKENS: Kind[] = ['authenticate', 'authorize', 'non_authenticated'];
const PIS_TOKENS: Kind[] = ['authenticate', 'authorize'];
const START = { end_user_ip: PSU_IP, start_mode: 'QR_CODE', scopes: 'AIS' };

const ROUTES: Route[] = [
  // bank §4.1: the authentication-flow calls (certificate only).
  { method: 'post', route: '/psd2/auth/3.0/authenticate', path: () => '/psd2/auth/3.0/authenticate', body: () => START, headers: (w) => ({ 'X-Sandbox-User': w.psu.user }), required: 'every-call', ok: 200, tokens: [] },
  { method: 'post', route: '/psd2/auth/3.0/authorize', path: () => '/psd2/auth/3.0/authorize', body: () => START, headers: (w) => ({ 'X-Sandbox-User': w.psu.user }), required: 'every-call', ok: 200, tokens: [] },
  { method: 'post', route: '/psd2/auth/3.0/status', path: () => '/psd2/auth/3.0/status', body: (w) => ({ pending_code: w.pendingCode }), required: 'every-call', ok: 200, needs: ['pendingCode'], tokens: [] },
  { method: 'post', route: '/psd2/auth/3.0/cancel', path: () => '/psd2/auth/3.0/cancel', body: (w) => ({ pending_code: w.pendingCode }), required: 'every-call', ok: 204, needs: ['pendingCode'], tokens: [] },
  {
    method: 'post',
    route: '/psd2/auth/1.0/token',
    path: () => '/psd2/auth/1.0/token',
    form: (w) => ({ grant_type: 'non_authenticated_token', user_id: w.psu.user }),
    required: 'every-call',
    ok: 200,
    tokens: [],
  },
  // AIS (bank §4.2).
  { method: 'get', route: '/v2/accounts-numbers', path: () => '/v2/accounts-numbers', required: 'non-authenticated', ok: 200, tokens: AIS_TOKENS },
  { method: 'get', route: '/v2/accounts', path: () => '/v2/accounts', required: 'non-authenticated', ok: 200, tokens: AIS_TOKENS },
  { method: 'get', route: '/v2/accounts/:accountNumber', path: (w) => `/v2/accounts/${w.account}`, required: 'non-authenticated', ok: 200, tokens: AIS_TOKENS },
  { method: 'get', route: '/v2/accounts/:accountNumber/transfers', path: (w) => `/v2/accounts/${w.account}/transfers`, required: 'non-authenticated', ok: 200, tokens: AIS_TOKENS },
  {
    method: 'get',
    route: '/v2/accounts/:accountNumber/transfers/:transferId',
    path: (w) => `/v2/accounts/${w.account}/transfers/${w.transfer}`,
    required: 'non-authenticated',
    ok: 200,
    needs: ['transfer'],
    tokens: AIS_TOKENS,
  },
  { method: 'get', route: '/v2/accounts/:accountNumber/:currency/:amount', path: (w) => `/v2/accounts/${w.account}/SEK/100`, required: 'non-authenticated', ok: 200, tokens: AIS_TOKENS },
  // PIS 3.0 (bank §4.3).
  {
    method: 'post',
    route: '/psd2/savings/3.0/accounts/:accountNumber/transfers',
    path: (w) => `/psd2/savings/3.0/accounts/${w.account}/transfers`,
    body: () => transferBody(),
    required: 'non-authenticated',
    ok: 201,
    tokens: PIS_TOKENS,
  },
  {
    method: 'post',
    route: '/psd2/savings/3.0/accounts/:accountNumber/recurring-transfers',
    path: (w) => `/psd2/savings/3.0/accounts/${w.account}/recurring-transfers`,
    body: () => transferBody({ frequency: 'MONTHLY' }),
    required: 'non-authenticated',
    ok: 201,
    tokens: PIS_TOKENS,
  },
  {
    method: 'post',
    route: '/psd2/savings/3.0/transfers/signing/start',
    path: () => '/psd2/savings/3.0/transfers/signing/start',
    body: (w) => ({ reference_ids: [w.transfer] }),
    required: 'every-call',
    ok: 200,
    needs: ['transfer'],
    tokens: PIS_TOKENS,
  },
  {
    method: 'post',
    route: '/psd2/savings/3.0/transfers/signing/collect',
    path: () => '/psd2/savings/3.0/transfers/signing/collect',
    body: (w) => ({ signing_id: w.signing }),
    required: 'every-call',
    ok: 200,
    needs: ['signing'],
    tokens: PIS_TOKENS,
  },
  {
    method: 'put',
    route: '/psd2/savings/3.0/transfers/sign-bankid/:signingId',
    path: (w) => `/psd2/savings/3.0/transfers/sign-bankid/${w.signing}`,
    required: 'non-authenticated',
    ok: 204,
    needs: ['signing'],
    tokens: PIS_TOKENS,
  },
  { method: 'get', route: '/psd2/savings/3.0/accounts/recurring-transfers', path: () => '/psd2/savings/3.0/accounts/recurring-transfers', required: 'non-authenticated', ok: 200, tokens: PIS_TOKENS },
  {
    method: 'get',
    route: '/psd2/savings/3.0/accounts/:accountNumber/transfers/:referenceId/status',
    path: (w) => `/psd2/savings/3.0/accounts/${w.account}/transfers/${w.transfer}/status`,
    required: 'non-authenticated',
    ok: 200,
    needs: ['transfer'],
    tokens: PIS_TOKENS,
  },
  {
    method: 'get',
    route: '/psd2/savings/3.0/accounts/:accountNumber/recurring-transfers/:referenceId/status',
    path: (w) => `/psd2/savings/3.0/accounts/${w.account}/recurring-transfers/${w.recurring}/status`,
    required: 'non-authenticated',
    ok: 200,
    needs: ['recurring'],
    tokens: PIS_TOKENS,
  },
  {
    method: 'delete',
    route: '/psd2/savings/3.0/accounts/:accountNumber/transfers/:transferId',
    path: (w) => `/psd2/savings/3.0/accounts/${w.account}/transfers/${w.transfer}`,
    required: 'non-authenticated',
    ok: 204,
    needs: ['transfer'],
    tokens: PIS_TOKENS,
  },
  {
    method: 'delete',
    route: '/psd2/savings/3.0/accounts/:accountNumber/recurring-transfers/:recurringTransferId',
    path: (w) => `/psd2/savings/3.0/accounts/${w.account}/recurring-transfers/${w.recurring}`,
    required: 'non-authenticated',
    ok: 204,
    needs: ['recurring'],
    tokens: PIS_TOKENS,
  },
  // PIS v3 (bank §4.2): non-authenticated tokens too.
  {
    method: 'post',
    route: '/v3/accounts/:accountNumber/transfers',
    path: (w) => `/v3/accounts/${w.account}/transfers`,
    body: () => transferBody(),
    required: 'non-authenticated',
    ok: 201,
    tokens: AIS_TOKENS,
  },
  {
    method: 'get',
    route: '/v3/accounts/:accountNumber/transfers/:referenceId/status',
    path: (w) => `/v3/accounts/${w.account}/transfers/${w.transfer}/status`,
    required: 'non-authenticated',
    ok: 200,
    needs: ['transfer'],
    tokens: AIS_TOKENS,
  },
];

const PSD2_STRATEGIES = new Set(['psd2-token', 'psd2-certificate']);

/** `METHOD /path` of every route the application guards with a PSD2 access policy. */
function declaredPsd2Routes(t: TestApp): string[] {
  const routes: string[] = [];
  for (const module of t.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as (new (...args: never[]) => unknown) | null;
      if (!controller) continue;
      const base = String(Reflect.getMetadata(PATH_METADATA, controller) ?? '');
      for (const name of Object.getOwnPropertyNames(controller.prototype)) {
        const handler = (controller.prototype as Record<string, unknown>)[name];
        if (name === 'constructor' || typeof handler !== 'function' || !Reflect.hasMetadata(PATH_METADATA, handler)) continue;
        const policy = (Reflect.getMetadata(ACCESS_POLICY, handler) ?? Reflect.getMetadata(ACCESS_POLICY, controller)) as AccessPolicy | undefined;
        if (!policy || !PSD2_STRATEGIES.has(policy.strategy)) continue;
        const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod].toLowerCase();
        const path = ['', base, String(Reflect.getMetadata(PATH_METADATA, handler))].join('/').replace(/\/+/g, '/').replace(/\/$/, '');
        routes.push(`${method} ${path}`);
      }
    }
  }
  return routes.sort();
}

describe('PSU-IP-Address, one rule from route metadata (contract §2; bank §4.1, §4.2, §5.9, §9 rule 9)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ frozenAt: TUESDAY });
  });
  afterAll(() => t.close());
  beforeEach(() => t.clock.freeze());

  /** A fresh World with what `route` needs. */
  async function world(route?: Pick<Route, 'needs'>): Promise<World> {
    const needs = new Set(route?.needs ?? []);
    const psu = await newPsu(t, { balance: 100000 });
    const account = psu.accounts[0];
    const tokens = new Map<Kind, Promise<string>>();
    const token = () => {
      if (!tokens.has('authenticate')) tokens.set('authenticate', psu.token('authenticate'));
      return tokens.get('authenticate')!;
    };
    const order = async (path: string, body: object) =>
      (await t.http.post(path).set(bearer(psu.tpp, await token())).send(body).expect(201)).body.reference_id as string;
    const w: World = { psu, account, transfer: '', recurring: '', signing: '', toSign: '', pendingCode: '', tokens };
    if (needs.has('transfer')) w.transfer = await order(`/psd2/savings/3.0/accounts/${account}/transfers`, transferBody());
    if (needs.has('recurring')) w.recurring = await order(`/psd2/savings/3.0/accounts/${account}/recurring-transfers`, transferBody({ frequency: 'MONTHLY' }));
    if (needs.has('signing')) {
      w.toSign = await order(`/psd2/savings/3.0/accounts/${account}/transfers`, transferBody());
      const start = t.http.post('/psd2/savings/3.0/transfers/signing/start').set(bearer(psu.tpp, await token()));
      w.signing = (await start.send({ reference_ids: [w.toSign] }).expect(200)).body.signing_id;
    }
    if (needs.has('pendingCode')) w.pendingCode = (await psu.tpp.start({ user: psu.user, mode: 'QR_CODE', scopes: 'AIS' }).expect(200)).body.pending_code;
    return w;
  }

  /** One call of the route as the PSU's TPP, with a token of `kind` (bearer routes), and the PSU-IP-Address given (undefined: absent). */
  async function call(route: Route, w: World, psuIp: string | undefined, kind?: Kind): Promise<Response> {
    if (kind && !w.tokens.has(kind)) w.tokens.set(kind, w.psu.token(kind));
    const token = kind ? await w.tokens.get(kind) : undefined;
    const headers = w.psu.tpp.headers({ ...route.headers?.(w), 'PSU-IP-Address': psuIp, ...(token ? { Authorization: `Bearer ${token}` } : {}) });
    const request = t.http[route.method](route.path(w)).set(headers);
    if (route.form) return request.type('form').send(route.form(w));
    return route.body ? request.send(route.body(w)) : request;
  }

  const expectRefused = (route: Route, res: Response) =>
    route.form ? expectOAuthError(res, 400, 'invalid_request') : expectValidationFailed(res, 'PSU-IP-Address');

  it('the table names every PSD2 route the application declares, and nothing else', () => {
    expect(declaredPsd2Routes(t)).toEqual(ROUTES.map((r) => `${r.method} ${r.route}`).sort());
  });

  describe.each(ROUTES)('$method $route', (route) => {
    const kinds: Array<Kind | undefined> = route.tokens.length ? route.tokens.filter((k) => k !== 'non_authenticated') : [undefined];

    it.each(kinds)('a malformed PSU-IP-Address is 400 naming it, with every token (contract §2) [%s]', async (kind) => {
      const w = await world(route);
      for (const value of MALFORMED) expectRefused(route, await call(route, w, value, kind));
      if (route.tokens.includes('non_authenticated')) expectRefused(route, await call(route, w, 'not-an-ip', 'non_authenticated'));
    });

    it('a well-formed IPv6 address is accepted (contract §2)', async () => {
      const res = await call(route, await world(route), IPV6, kinds[0]);
      expect({ status: res.status, body: res.body as unknown }).toMatchObject({ status: route.ok });
    });

    if (route.required === 'every-call') {
      it.each(kinds)('an absent PSU-IP-Address is 400 naming it: required on this call (contract §2) [%s]', async (kind) => {
        expectRefused(route, await call(route, await world(route), undefined, kind));
      });
    } else {
      it.each(kinds)('an absent PSU-IP-Address is fine with an authenticate or authorize token: optional here (contract §2) [%s]', async (kind) => {
        const res = await call(route, await world(route), undefined, kind);
        expect({ status: res.status, body: res.body as unknown }).toMatchObject({ status: route.ok });
      });
    }

    if (route.tokens.includes('non_authenticated')) {
      it('an absent PSU-IP-Address is 400 naming it with a non-authenticated token (contract §2, bank §4.2, §5.9)', async () => {
        expectRefused(route, await call(route, await world(route), undefined, 'non_authenticated'));
      });
    }
  });

  describe('outside PSD2, wherever it is sent (contract §2)', () => {
    it('a malformed PSU-IP-Address is 400 naming it on partner, enterprise and admin routes too, and a well-formed one changes nothing', async () => {
      const partner = { Authorization: `Bearer ${(await newPartner(t)).api_key}` };
      const admin = { Authorization: `Bearer ${ADMIN_KEY}` };
      const collect = () => t.http.post('/signing/1.0/collect').set(partner).send({ participant_id: '00000000-0000-4000-8000-000000000000' });
      const enterpriseToken = () => t.http.post('/api/auth/1.0/token').set(partner).type('form').send({ grant_type: 'client_credentials' });
      for (const value of MALFORMED) {
        expectValidationFailed(await collect().set('PSU-IP-Address', value), 'PSU-IP-Address');
        expectValidationFailed(await t.http.get('/admin/clock').set(admin).set('PSU-IP-Address', value), 'PSU-IP-Address');
        const token = await enterpriseToken().set('PSU-IP-Address', value);
        expectOAuthError(token, 400, 'invalid_request');
        expect(token.body.error_description).toContain('PSU-IP-Address');
      }
      expectProblem(await collect().set('PSU-IP-Address', IPV6), 404, 'NOT_FOUND');
      await enterpriseToken().set('PSU-IP-Address', PSU_IP).expect(200);
      await t.http.get('/admin/clock').set(admin).set('PSU-IP-Address', IPV6).expect(200);
    });

    it('its format is checked after the credentials there too (contract §1 order)', async () => {
      expectProblem(await t.http.post('/signing/1.0/collect').set('PSU-IP-Address', 'not-an-ip').send({}), 401, 'UNAUTHORIZED');
    });
  });

  describe('order of checks (contract §1: credentials before input validation)', () => {
    it('no certificate with a malformed PSU-IP-Address: 401, on a certificate route and a bearer route', async () => {
      const w = await world({ needs: ['pendingCode'] });
      const token = await w.psu.token('authenticate');
      const noCert = { 'PSU-IP-Address': 'not-an-ip' };
      expectProblem(await t.http.post('/psd2/auth/3.0/status').set(noCert).send({ pending_code: w.pendingCode }), 401, 'UNAUTHORIZED');
      expectProblem(await t.http.get('/v2/accounts').set({ ...noCert, Authorization: `Bearer ${token}` }), 401, 'UNAUTHORIZED');
      expectOAuthError(await t.http.post('/psd2/auth/1.0/token').set(noCert).type('form').send({ grant_type: 'non_authenticated_token', user_id: w.psu.user }), 401, 'invalid_client');
    });

    it('a token of a kind the route does not take, with a malformed PSU-IP-Address: 403 TOKEN_KIND_NOT_ALLOWED', async () => {
      const w = await world();
      const token = await w.psu.token('non_authenticated');
      const res = await t.http.get('/psd2/savings/3.0/accounts/recurring-transfers').set(bearer(w.psu.tpp, token, { 'PSU-IP-Address': 'not-an-ip' }));
      expectProblem(res, 403, 'TOKEN_KIND_NOT_ALLOWED');
    });

    it('the PSU-IP-Address check comes before the body and path checks', async () => {
      const w = await world();
      const token = await w.psu.token('authenticate');
      const res = await t.http
        .post('/psd2/savings/3.0/transfers/signing/collect')
        .set(bearer(w.psu.tpp, token, { 'PSU-IP-Address': 'not-an-ip' }))
        .send({ signing_id: 'not-a-uuid' });
      expectValidationFailed(res, 'PSU-IP-Address');
    });
  });
});
