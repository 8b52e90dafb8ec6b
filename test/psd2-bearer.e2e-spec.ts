import { Controller, Get, Module } from '@nestjs/common';
import { AllowTokenKinds, CurrentPsd2Caller, Psd2Bearer, type Psd2Caller, RequireScope } from '@app/auth';
import { expectProblem } from './support/problems';
import { certificate, newUser, psd2App, Psd2Client } from './support/psd2';
import type { TestApp } from './support/test-app';

/** Routes shaped like the AIS/PIS routes of the next interfaces (contract §5 "which token works where"). */
@Controller('test-only/psd2')
@Psd2Bearer()
class Psd2ResourceController {
  @Get('ais')
  @RequireScope('AIS')
  @AllowTokenKinds('authenticate', 'authorize', 'non_authenticated')
  ais(@CurrentPsd2Caller() caller: Psd2Caller) {
    return { personal_number: caller.token.personalNumber, kind: caller.token.kind, scopes: caller.token.scopes, tpp: caller.tpp.identifier };
  }

  @Get('pis')
  @RequireScope('PIS')
  @AllowTokenKinds('authenticate', 'authorize')
  pis(@CurrentPsd2Caller() caller: Psd2Caller) {
    return { kind: caller.token.kind };
  }
}

@Module({ controllers: [Psd2ResourceController] })
class Psd2ResourceModule {}

describe('PSD2 bearer tokens on resource routes (bank §5.4; contract §1, §3, §5)', () => {
  let t: TestApp;
  let tpp: Psd2Client;
  beforeAll(async () => ({ t, tpp } = await psd2App({ imports: [Psd2ResourceModule] })));
  afterAll(() => t.close());
  beforeEach(() => t.clock.freeze());

  const get = (path: string, client: Psd2Client, token?: string) =>
    t.http.get(`/test-only/psd2/${path}`).set(client.headers(token === undefined ? {} : { Authorization: `Bearer ${token}` }));

  it('resolves the token to its user, kind and scopes', async () => {
    const user = await newUser(t);
    const { access_token } = await tpp.tokens({ user, scopes: 'AIS' });
    const res = await get('ais', tpp, access_token).expect(200);
    expect(res.body).toMatchObject({ personal_number: user, kind: 'authenticate', scopes: ['AIS'] });
  });

  it('answers 401 without a token, with an unknown one, or without the certificate (contract §2)', async () => {
    expectProblem(await get('ais', tpp), 401, 'UNAUTHORIZED');
    expectProblem(await get('ais', tpp, 'not-a-token'), 401, 'UNAUTHORIZED');
    const { access_token } = await tpp.tokens({ user: await newUser(t) });
    const res = await t.http.get('/test-only/psd2/ais').set({ Authorization: `Bearer ${access_token}`, 'PSU-IP-Address': '192.0.2.1' });
    expectProblem(res, 401, 'UNAUTHORIZED');
  });

  it('answers 401 when another TPP presents the token (contract §3: a token is bound to its TPP)', async () => {
    const { access_token } = await tpp.tokens({ user: await newUser(t) });
    expectProblem(await get('ais', await Psd2Client.create(t), access_token), 401, 'UNAUTHORIZED');
  });

  it('an authenticate token expires at exactly 30 minutes: 200 a millisecond before, 401 from then on (§5.5, §8; contract §6)', async () => {
    const { access_token } = await tpp.tokens({ user: await newUser(t) });
    await t.clock.advance(1799.999);
    await get('ais', tpp, access_token).expect(200);
    await t.clock.advance(0.001);
    expectProblem(await get('ais', tpp, access_token), 401, 'UNAUTHORIZED');
  });

  it('an authorize token expires at exactly 5 minutes: 200 a millisecond before (§5.5, §8; contract §6)', async () => {
    const { access_token } = await tpp.tokens({ flow: 'authorize', user: await newUser(t) });
    await t.clock.advance(299.999);
    await get('ais', tpp, access_token).expect(200);
    await t.clock.advance(0.001);
    expectProblem(await get('ais', tpp, access_token), 401, 'UNAUTHORIZED');
  });

  it('a refreshed token expires at exactly 300 s: 200 a millisecond before (§5.5; contract §5, §6)', async () => {
    const code = await tpp.completedCode({ flow: 'authorize', user: await newUser(t), scopes: 'AIS' });
    const { refresh_token } = (await tpp.exchange(code).expect(200)).body;
    await t.clock.advance(60);
    const { access_token } = (await tpp.refresh(refresh_token).expect(200)).body;
    await t.clock.advance(299.999);
    await get('ais', tpp, access_token).expect(200);
    await t.clock.advance(0.001);
    expectProblem(await get('ais', tpp, access_token), 401, 'UNAUTHORIZED');
  });

  it('a non-authenticated token lives as long as its TPP\'s setting, expiring at exactly its end (§8; contract §6)', async () => {
    const org = 'PSDSE-FINA-60606';
    await t.admin.put(`/admin/tpps/${org}`, { non_authenticated_token_lifetime_s: 60 }).expect(200);
    const client = new Psd2Client(t, await certificate(['PSP_AI'], org));
    const { access_token } = (await client.nonAuthenticated(await newUser(t)).expect(200)).body;
    await t.clock.advance(59.999);
    await get('ais', client, access_token).expect(200);
    await t.clock.advance(0.001);
    expectProblem(await get('ais', client, access_token), 401, 'UNAUTHORIZED');
  });

  it('a token without the route\'s scope is 403 SCOPE_NOT_GRANTED (contract §5)', async () => {
    const { access_token } = await tpp.tokens({ user: await newUser(t), scopes: 'AIS' });
    expectProblem(await get('pis', tpp, access_token), 403, 'SCOPE_NOT_GRANTED');
  });

  it('a token of a kind the route does not take is 403 TOKEN_KIND_NOT_ALLOWED, before the scope check (contract §1, §5)', async () => {
    const aiOnly = new Psd2Client(t, await certificate(['PSP_AI']));
    const { access_token } = (await aiOnly.nonAuthenticated(await newUser(t)).expect(200)).body;
    expectProblem(await get('pis', aiOnly, access_token), 403, 'TOKEN_KIND_NOT_ALLOWED');
  });

  it('a certificate without the scope\'s role is 403 ROLE_NOT_IN_CERTIFICATE, after the scope check (contract §1, §5)', async () => {
    const org = 'PSDSE-FINA-50505';
    const full = new Psd2Client(t, await certificate(['PSP_AI', 'PSP_PI'], org));
    const { access_token } = await full.tokens({ user: await newUser(t), scopes: 'AIS,PIS' });
    const narrowed = new Psd2Client(t, await certificate(['PSP_AI'], org));
    expectProblem(await get('pis', narrowed, access_token), 403, 'ROLE_NOT_IN_CERTIFICATE');
    await get('ais', narrowed, access_token).expect(200);
  });

  it('a refreshed token is AIS only (contract §5)', async () => {
    const code = await tpp.completedCode({ flow: 'authorize', user: await newUser(t), scopes: 'AIS,PIS' });
    const { refresh_token } = (await tpp.exchange(code).expect(200)).body;
    const { access_token } = (await tpp.refresh(refresh_token).expect(200)).body;
    await get('ais', tpp, access_token).expect(200);
    expectProblem(await get('pis', tpp, access_token), 403, 'SCOPE_NOT_GRANTED');
  });
});
