import { readPsd2Certificate } from '@app/directory';
import { clientOf, issueCertificate, type IssuedCertificate, tlsCall } from './support/mutual-tls';
import { bearer, certificate, newOrganizationId, newUser, Psd2Client, PSU_IP } from './support/psd2';
import { expectProblem } from './support/problems';
import { describeOnServer } from './support/server-only';
import { ADMIN_KEY, BASE_TIME, closeApps, createTestApp, recordStatements, TestApp, twoInstances } from './support/test-app';

// Access tokens are kept in process memory once read (issue 19: the AIS/PIS hot path costs no token
// query after the first). Every rule about a token must hold as if it were read each time.

const operator = { Authorization: `Bearer ${ADMIN_KEY}` };
const UNKNOWN_TOKEN = 'The access token is missing, unknown or expired (Authorization: Bearer <access_token>).';

/** A PSD2 client of a sandbox under its prefix, with a user holding one account. */
async function tokenInSandbox(t: TestApp, sandboxId: string, adminKey: string): Promise<{ headers: Record<string, string>; prefix: string }> {
  const prefix = `/sandboxes/${sandboxId}`;
  const admin = { Authorization: `Bearer ${adminKey}` };
  const user = '198507099805';
  await t.http.put(`${prefix}/admin/users/${user}`).set(admin).send({ name: 'Test Testsson', kyc_completed: true, eid_behaviour: 'AUTO_COMPLETE' }).expect(201);
  await t.http.post(`${prefix}/admin/users/${user}/accounts`).set(admin).send({ name: 'Konto', currency: 'SEK', balance: 100 }).expect(201);
  const tpp = { 'X-PSD2-CLIENT-TEST-CERT': await certificate(), 'PSU-IP-Address': '192.0.2.10' };
  const access = (await t.http.post(`${prefix}/psd2/auth/1.0/token`).set(tpp).type('form').send({ grant_type: 'non_authenticated_token', user_id: user }).expect(200)).body
    .access_token as string;
  return { headers: { ...tpp, Authorization: `Bearer ${access}` }, prefix };
}

describe('access tokens kept in memory (issue 19) follow every token rule', () => {
  let t: TestApp;
  let tpp: Psd2Client;
  beforeAll(async () => {
    t = await createTestApp({ frozenAt: BASE_TIME, env: { DOWNTIME_CALENDAR: 'off' } });
    tpp = await Psd2Client.create(t);
  });
  afterAll(() => t.close());
  beforeEach(() => t.clock.freeze());

  it('bank §5.5: a token this instance has read is still refused once the sandbox clock passes its expiry', async () => {
    const user = await newUser(t, { eid: 'AUTO_COMPLETE', accounts: 1 });
    const { access_token } = await tpp.tokens({ flow: 'authorize', user });
    await t.http.get('/v2/accounts').set(bearer(tpp, access_token)).expect(200);
    await t.clock.advance(299);
    await t.http.get('/v2/accounts').set(bearer(tpp, access_token)).expect(200);
    await t.clock.advance(1);
    const res = await t.http.get('/v2/accounts').set(bearer(tpp, access_token));
    expectProblem(res, 401, 'UNAUTHORIZED');
    expect(res.body.reason.message).toBe(UNKNOWN_TOKEN);
  });

  it('bank §5.5: a token this instance has read is still another TPP\'s for a different certificate', async () => {
    const user = await newUser(t, { eid: 'AUTO_COMPLETE', accounts: 1 });
    const { access_token } = await tpp.tokens({ flow: 'authorize', user });
    await t.http.get('/v2/accounts').set(bearer(tpp, access_token)).expect(200);
    const other = new Psd2Client(t, await certificate());
    expectProblem(await t.http.get('/v2/accounts').set(bearer(other, access_token)), 401, 'UNAUTHORIZED');
  });

  it('contract §16: a token this instance has read stays bound to its certificate on the TLS port, checked without reading its row again', async () => {
    const base = await t.listenTls();
    const ca = (await t.http.get('/sandbox/ca.pem').expect(200)).text;
    const first = await issueCertificate(t, { organization_id: newOrganizationId(), roles: ['PSP_AI'] });
    const organizationId = readPsd2Certificate(Buffer.from(first.certificate_pem).toString('base64')).organizationId as string;
    const second = await issueCertificate(t, { organization_id: organizationId, roles: ['PSP_AI'] });
    const user = await newUser(t, { eid: 'AUTO_COMPLETE', accounts: 1 });
    const headers = { 'PSU-IP-Address': PSU_IP };
    const issued = await tlsCall(base, ca, '/psd2/auth/1.0/token', { client: clientOf(first), headers, form: { grant_type: 'non_authenticated_token', user_id: user } });
    const read = (issuedTo: IssuedCertificate) =>
      tlsCall(base, ca, '/v2/accounts', { client: clientOf(issuedTo), headers: { ...headers, Authorization: `Bearer ${String(issued.body.access_token)}` } });
    expect((await read(first)).status).toBe(200);

    const statements = recordStatements(t);
    const refused = await read(second);
    expect({ status: refused.status, challenge: refused.headers['www-authenticate'] }).toEqual({ status: 401, challenge: 'Bearer realm="sandbox", error="invalid_token"' });
    expect((await read(first)).status).toBe(200);
    expect(statements.filter((sql) => sql.includes('psd2_access_token'))).toEqual([]);
  });

  it('contract §13 Lifecycle: a token this instance has read is unknown at once after its sandbox is reset', async () => {
    const sb = (await t.http.post('/sandboxes').set(operator).send({ name: 'token cache', seed_demo: false }).expect(201)).body;
    const { headers, prefix } = await tokenInSandbox(t, sb.sandbox_id, sb.admin_key);
    await t.http.get(`${prefix}/v2/accounts`).set(headers).expect(200);
    await t.http.post(`${prefix}/reset`).set(operator).expect(200);
    const res = await t.http.get(`${prefix}/v2/accounts`).set(headers);
    expectProblem(res, 401, 'UNAUTHORIZED');
    expect(res.body.reason.message).toBe(UNKNOWN_TOKEN);
  });
});

describeOnServer('access tokens kept in memory, two instances on one database (issue 19, contract §13)', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    [a, b] = await twoInstances({ env: { DOWNTIME_CALENDAR: 'off' } });
  });
  afterAll(() => closeApps(a, b));

  it('contract §13 Lifecycle: a token read by one instance is unknown there within the clock\'s second after another instance resets its sandbox', async () => {
    const sb = (await a.http.post('/sandboxes').set(operator).send({ name: 'token cache', seed_demo: false }).expect(201)).body;
    const { headers, prefix } = await tokenInSandbox(a, sb.sandbox_id, sb.admin_key);
    await b.http.get(`${prefix}/v2/accounts`).set(headers).expect(200);
    await a.http.post(`${prefix}/reset`).set(operator).expect(200);
    // The other instance learns of the reset with its clock's next read (contract §6: within a second).
    const deadline = Date.now() + 1500;
    let res;
    do {
      res = await b.http.get(`${prefix}/v2/accounts`).set(headers);
      if (res.status === 401) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    } while (Date.now() < deadline);
    expectProblem(res, 401, 'UNAUTHORIZED');
    expect(res.body.reason.message).toBe(UNKNOWN_TOKEN);
  });
});
