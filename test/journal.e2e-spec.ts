import { Body, Controller, Module, Post } from '@nestjs/common';
import { createHash, randomBytes, randomUUID, X509Certificate } from 'node:crypto';
import request from 'supertest';
import { DataSource, type QueryRunner } from 'typeorm';
import { JobRunner, JOURNAL_ROW_COLUMNS, JournalStore, JournalWriter, Public, RequestHints, type JournalBatch } from '@app/common';
import { newPartner } from './support/fixtures';
import { expectProblem, expectValidationFailed } from './support/problems';
import { certificate, newOrganizationId, newUser, Psd2Client, PSU_IP } from './support/psd2';
import { describeOnServer } from './support/server-only';
import { ADMIN_KEY, createTestApp, TestApp } from './support/test-app';

/** A route that raises a hint, as domain code does where its rule lives (contract §14 plumbing). */
@Controller('test-journal')
class HintRaisingController {
  @Post('hint')
  @Public()
  raise(@Body() body: { clean?: boolean }): { raised: boolean } {
    if (!body.clean) RequestHints.raise('EXCHANGE_BEFORE_COMPLETE', { state: 'PENDING' });
    return { raised: !body.clean };
  }

  /** Answers what it was sent, with res.json as every JSON answer. */
  @Post('echo')
  @Public()
  echo(@Body() body: Record<string, unknown>): Record<string, unknown> {
    return body;
  }
}

@Module({ controllers: [HintRaisingController] })
class HintRaisingModule {}

const operator = { Authorization: `Bearer ${ADMIN_KEY}` };
const newRequestId = (label: string) => `${label}-${randomUUID()}`;
const secret = (label: string) => `${label}${randomBytes(12).toString('hex')}`;

/** Everything the journal wrote so far, as stored. */
async function flush(t: TestApp): Promise<void> {
  await t.app.get(JournalWriter).flush();
}

async function storedRows(t: TestApp, where = 'true', parameters: unknown[] = []): Promise<Array<Record<string, unknown>>> {
  return t.app.get(DataSource).query(`SELECT * FROM journal_entry WHERE ${where} ORDER BY arrived_at, tiebreak`, parameters);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- an answer the OpenAPI validator already checked
async function entry(t: TestApp, requestId: string): Promise<Record<string, any>> {
  await flush(t);
  return (await t.admin.get(`/admin/requests/${requestId}`).expect(200)).body;
}

/** A TPP whose organization id the test knows. */
async function tppOf(t: TestApp): Promise<{ client: Psd2Client; organizationId: string }> {
  const organizationId = newOrganizationId();
  return { client: new Psd2Client(t, await certificate(['PSP_AI', 'PSP_PI'], organizationId)), organizationId };
}

describe('contract §14 request journal: what is recorded', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ imports: [HintRaisingModule] });
  });
  afterAll(() => t.close());

  it('contract §14: an entry keeps what was sent and answered exactly, whatever the characters (backslashes, quotes, emoji, tabs, newlines, NUL)', async () => {
    const id = newRequestId('characters');
    const text = 'back\\slash \\t \\n quote" é ✓ 😀 \\N \\. \\\\';
    const sent = { text, nested: { [text]: [text, 1.5e-7, null] } };
    // A route of this test, not of the OpenAPI description: supertest without the response check.
    await request(t.app.getHttpServer()).post('/test-journal/echo').query({ q: text }).set({ 'X-Request-Id': id, 'X-Note': 'back\\slash\ttab' }).send(sent).expect(201);
    const recorded = await entry(t, id);
    expect(recorded.request.body).toEqual(sent);
    expect(recorded.response.body).toEqual(sent);
    expect(recorded.query).toEqual({ q: text });
    expect(recorded.request.headers['x-note']).toBe('back\\slash\ttab');
    // Control characters are refused (400), and the refusal is recorded with what was sent.
    const refused = newRequestId('control-characters');
    const controls = { text: 'tab\there new\nline cr\r nul\u0000 del\u007f' };
    expectValidationFailed(await request(t.app.getHttpServer()).post('/test-journal/echo').query({ q: controls.text }).set('X-Request-Id', refused).send(controls), 'text');
    const refusal = await entry(t, refused);
    expect(refusal).toMatchObject({ status: 400, reason_code: 'VALIDATION_FAILED', query: { q: controls.text }, request: { body: controls } });
  });

  it('contract §14: a request gets an entry with request_id, at (sandbox clock), method, path, query, status, duration_ms, caller, request, response and hints', async () => {
    const { client, organizationId } = await tppOf(t);
    const user = await newUser(t);
    const id = newRequestId('start');
    const res = await client.start({ user, headers: { 'X-Request-Id': id } }).expect(200);
    const recorded = await entry(t, id);
    expect(recorded).toMatchObject({
      request_id: id,
      method: 'POST',
      path: '/psd2/auth/3.0/authenticate',
      query: {},
      status: 200,
      duration_ms: expect.any(Number),
      caller: { kind: 'tpp', id: organizationId },
      hints: [],
    });
    expect(recorded.reason_code).toBeUndefined();
    // The test clock is pinned at BASE_TIME and running: `at` is the sandbox's time, not the machine's.
    expect(Math.abs(Date.parse(recorded.at) - Date.parse('2026-11-24T09:00:00Z'))).toBeLessThan(120_000);
    expect(Math.abs(Date.parse(recorded.arrived_at) - Date.now())).toBeLessThan(60_000);
    expect(recorded.request.headers['x-request-id']).toBe(id);
    expect(recorded.request.headers['x-psd2-client-test-cert']).toEqual({ organization_id: organizationId, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(recorded.request.body).toMatchObject({ end_user_ip: PSU_IP, start_mode: 'AUTO_START' });
    expect(recorded.response.body).toMatchObject({ pending_code: '[redacted]' });
    expect(JSON.stringify(recorded)).not.toContain(res.body.pending_code);
  });

  it('contract §14: the caller is what the request identified even when it was refused (a TPP\'s 401 with an unknown token), with its reason_code', async () => {
    const { client, organizationId } = await tppOf(t);
    const id = newRequestId('refused');
    const res = await t.http.get('/v2/accounts').set(client.headers({ Authorization: 'Bearer not-a-token-at-all', 'X-Request-Id': id })).expect(401);
    const recorded = await entry(t, id);
    expect(recorded).toMatchObject({ status: 401, caller: { kind: 'tpp', id: organizationId }, reason_code: expectProblem(res, 401).reason.code });
  });

  it('contract §14: a partner is recorded by its partner_id, an unauthenticated caller as anonymous', async () => {
    const partner = await newPartner(t);
    const signing = newRequestId('partner');
    await t.http.post('/signing/1.0/start').set({ Authorization: `Bearer ${partner.api_key}`, 'X-Request-Id': signing }).send({}).expect(400);
    expect(await entry(t, signing)).toMatchObject({ status: 400, caller: { kind: 'partner', id: partner.partner_id }, reason_code: 'VALIDATION_FAILED' });

    const anonymous = newRequestId('anonymous');
    await t.http.get('/sandbox/test-certificate').query({ roles: 'PSP_AI' }).set('X-Request-Id', anonymous).expect(200);
    const recorded = await entry(t, anonymous);
    expect(recorded.caller).toEqual({ kind: 'anonymous' });
    expect(recorded.query).toEqual({ roles: 'PSP_AI' });
  });

  it('contract §14: /admin/*, /health, /docs, /openapi.json, the console page, the journal\'s own reads and the lifecycle routes are not recorded', async () => {
    const created = (await t.http.post('/sandboxes').set(operator).set('X-Request-Id', newRequestId('excluded')).send({ name: 'journal exclusions' }).expect(201)).body;
    const requests: Array<[string, string]> = [
      ['GET', '/admin/clock'],
      ['GET', '/health'],
      ['GET', '/openapi.json'],
      ['GET', '/docs'],
      ['GET', '/'],
      ['GET', '/admin/requests'],
      ['GET', `/sandboxes/${created.sandbox_id}`],
      ['GET', '/sandboxes'],
      ['GET', `/sandboxes/${created.sandbox_id}/admin/clock`],
      ['GET', `/sandboxes/${created.sandbox_id}/`],
      ['GET', `/sandboxes/${created.sandbox_id}/health`],
      ['GET', `/sandboxes/${randomUUID()}/sandbox/test-certificate`],
      ['GET', '/sandboxes/not-an-id/sandbox/test-certificate'],
      ['GET', '/sandbox/requests'],
    ];
    for (const [method, path] of requests) {
      const server = request(t.app.getHttpServer());
      await server[method.toLowerCase() as 'get'](path).set({ ...operator, 'X-Request-Id': newRequestId('excluded') });
    }
    await flush(t);
    expect(await storedRows(t, `request_id LIKE 'excluded-%'`)).toEqual([]);
  });

  it('contract §14: a hint raised while handling a request goes into the Sandbox-Hints header and the entry; a clean request has neither', async () => {
    const hinted = newRequestId('hinted');
    const res = await request(t.app.getHttpServer()).post('/test-journal/hint').set('X-Request-Id', hinted).send({}).expect(201);
    expect(res.headers['sandbox-hints']).toBe('EXCHANGE_BEFORE_COMPLETE');
    expect((await entry(t, hinted)).hints).toEqual([{ code: 'EXCHANGE_BEFORE_COMPLETE', message: expect.stringContaining('COMPLETE'), section: 'bank §3.1' }]);

    const clean = newRequestId('clean');
    const cleanRes = await request(t.app.getHttpServer()).post('/test-journal/hint').set('X-Request-Id', clean).send({ clean: true }).expect(201);
    expect(cleanRes.headers['sandbox-hints']).toBeUndefined();
    expect((await entry(t, clean)).hints).toEqual([]);
  });

  it('contract §14: GET /admin/requests/{request_id} answers the newest entry when a client reused the id, and 404 for an unknown one', async () => {
    const id = newRequestId('reused');
    await t.http.get('/sandbox/test-certificate').query({ roles: 'PSP_AI' }).set('X-Request-Id', id).expect(200);
    await t.http.get('/sandbox/test-certificate').query({ roles: 'PSP_PI' }).set('X-Request-Id', id).expect(200);
    expect((await entry(t, id)).query).toEqual({ roles: 'PSP_PI' });
    expectProblem(await t.admin.get(`/admin/requests/${newRequestId('never')}`), 404, 'NOT_FOUND');
    expectValidationFailed(await t.admin.get(`/admin/requests/${'x'.repeat(129)}`), 'request_id');
  });
});

describe('contract §14 request journal: an expired enterprise token\'s 401 is its holder\'s', () => {
  let t: TestApp;
  let partner: { partner_id: string; api_key: string };
  beforeAll(async () => {
    t = await createTestApp({ frozenAt: '2026-11-24T10:00:00+01:00' });
    partner = await newPartner(t);
  });
  afterAll(() => t.close());
  beforeEach(() => t.clock.freeze());

  const asPartner = (credential: string) => ({ Authorization: `Bearer ${credential}` });
  const statusOf = (id: string, credential: string, requestId: string) =>
    t.http.get(`/api/loan-application/2.0/mortgages/status/${id}`).set({ ...asPartner(credential), 'X-Request-Id': requestId });
  async function loanApplication(applicant: string): Promise<string> {
    const body = { applicants: [{ personal_number: applicant, yearly_income: 700_000 }], loan_amount: 1_000_000 };
    return (await t.http.post('/api/loan-application/2.0/mortgages').set(asPartner(partner.api_key)).send(body).expect(201)).body.id;
  }

  it('contract §14: a client-credentials token used after its 300 s is recorded under its partner with TOKEN_EXPIRED (when, how long it lived), and GET /sandbox/requests?status=401 lists it to that partner', async () => {
    const id = await loanApplication(await newUser(t));
    const token = (await t.http.post('/api/auth/1.0/token').set(asPartner(partner.api_key)).type('form').send({ grant_type: 'client_credentials' }).expect(200)).body.access_token;
    await t.clock.advance(300 + 12);
    const expired = newRequestId('expired-cc');
    await statusOf(id, token, expired).expect(401);
    expect(await entry(t, expired)).toMatchObject({
      status: 401,
      caller: { kind: 'partner', id: partner.partner_id },
      reason_code: 'UNAUTHORIZED',
      hints: [{ code: 'TOKEN_EXPIRED', message: expect.stringMatching(/expired 12 s ago \(at 2026-11-24T10:05:00\+01:00\); it lived 300 s/), section: 'bank §5.5' }],
    });
    const own = (await t.http.get('/sandbox/requests').set(asPartner(partner.api_key)).query({ status: 401 }).expect(200)).body;
    expect(own.entries.map((e: { request_id: string }) => e.request_id)).toContain(expired);
    // Another partner does not see it.
    const other = await newPartner(t);
    expect((await t.http.get('/sandbox/requests').set(asPartner(other.api_key)).query({ status: 401 }).expect(200)).body.entries).toEqual([]);
  });

  it('contract §14: an end-user token used after its 300 s is recorded under that end user with TOKEN_EXPIRED', async () => {
    const user = await newUser(t);
    const id = await loanApplication(user);
    const { pending_authorization_code } = (
      await t.http.get('/api/auth/1.0/authorize').set(asPartner(partner.api_key)).query({ client_id: 'app', response_type: 'pending_code', scope: 'loan.read', user_id: user }).expect(200)
    ).body;
    const token = (
      await t.http.post('/api/auth/1.0/token').set(asPartner(partner.api_key)).type('form').send({ grant_type: 'pending_authorization_code', pending_code: pending_authorization_code }).expect(200)
    ).body.access_token;
    await t.clock.advance(300);
    const expired = newRequestId('expired-end-user');
    await statusOf(id, token, expired).expect(401);
    expect(await entry(t, expired)).toMatchObject({ status: 401, caller: { kind: 'end_user', id: user }, hints: [{ code: 'TOKEN_EXPIRED' }] });
  });

  it('contract §14: an unknown bearer value identifies nobody: anonymous, no hint', async () => {
    const unknown = newRequestId('unknown-bearer');
    await statusOf(randomUUID(), 'no-such-token-00000000000000', unknown).expect(401);
    expect(await entry(t, unknown)).toMatchObject({ status: 401, caller: { kind: 'anonymous' }, hints: [] });
  });
});

describe('contract §14 request journal: secrets never appear', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('contract §14: tokens, pending codes, autostart tokens, partner and admin keys planted in headers, query, form and JSON bodies are in no stored row and no answer', async () => {
    const { client } = await tppOf(t);
    const user = await newUser(t);
    const partner = await newPartner(t);
    const planted = {
      queryToken: secret('qtoken'),
      queryCode: secret('qcode'),
      formRefresh: secret('frefresh'),
      formCode: secret('fcode'),
      jsonCode: secret('jcode'),
      jsonKey: secret('jkey'),
      headerKey: secret('hkey'),
      adminHeader: secret('hadmin'),
    };
    // Real secrets the service issued: a pending code and autostart token, an access and a refresh token.
    const started = (await client.start({ user }).expect(200)).body;
    await client.status(started.pending_code).expect(200);
    const tokens = (await client.exchange(started.pending_code).expect(200)).body;
    await t.http.get('/v2/accounts').set(client.headers({ Authorization: `Bearer ${tokens.access_token}` })).query({ access_token: planted.queryToken, pending_code: planted.queryCode });
    await client.token({ grant_type: 'refresh_token', refresh_token: planted.formRefresh, code: planted.formCode });
    await client.refresh(tokens.refresh_token);
    await client.status(planted.jsonCode);
    await t.http.post('/signing/1.0/start').set({ Authorization: `Bearer ${partner.api_key}`, 'X-Admin-Key': planted.adminHeader }).send({ api_key: planted.jsonKey });
    await t.http.get('/sandbox/test-certificate').set({ Authorization: `Bearer ${planted.headerKey}` }).expect(200);
    await flush(t);

    const secrets = [...Object.values(planted), started.pending_code, started.auto_start_token, tokens.access_token, tokens.refresh_token, partner.api_key, ADMIN_KEY];
    const stored = JSON.stringify(await storedRows(t));
    const adminAnswer = JSON.stringify((await t.admin.get('/admin/requests').query({ limit: 500 }).expect(200)).body);
    const partnerAnswer = JSON.stringify((await t.http.get('/sandbox/requests').set('Authorization', `Bearer ${partner.api_key}`).expect(200)).body);
    const tppAnswer = JSON.stringify((await t.http.get('/sandbox/requests').set(client.headers()).expect(200)).body);
    for (const value of secrets) {
      expect({ value, stored: stored.includes(value) }).toEqual({ value, stored: false });
      expect({ value, answered: [adminAnswer, partnerAnswer, tppAnswer].some((text) => text.includes(value)) }).toEqual({ value, answered: false });
    }
    // The planted places were recorded, redacted: the test saw them.
    expect(stored).toContain('"access_token":"[redacted]"');
    expect(stored).toContain('"refresh_token":"[redacted]"');
    expect(stored).toContain('"pending_code":"[redacted]"');
    expect(stored).toContain('"authorization":"Bearer [redacted]"');
    expect(stored).toContain('"x-admin-key":"[redacted]"');
    expect(stored).toContain('"api_key":"[redacted]"');
  });
});

/** SHA-256 of a certificate's DER, as the journal's summary names it. */
const derFingerprint = (der: Buffer) => createHash('sha256').update(der).digest('hex');
/** Pieces of a certificate's Base64 (letters and digits only, so found in a PEM and URL-encoded too): any one in a text means it survived. */
const piecesOf = (base64: string) => (base64.match(/[A-Za-z0-9]{24}/g) ?? []).slice(1, 5);

describe('contract §14 request journal: a certificate is kept as its organization id and SHA-256 fingerprint, wherever it appears', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ imports: [HintRaisingModule] });
  });
  afterAll(() => t.close());

  it('contract §14: the certificate of GET /sandbox/test-certificate\'s answer is kept as its organization id and the SHA-256 of its DER, the summary its X-PSD2-CLIENT-TEST-CERT header gets', async () => {
    const organizationId = newOrganizationId();
    const minted = newRequestId('minted');
    const issued = (await t.http.get('/sandbox/test-certificate').query({ roles: 'PSP_AI', organization_id: organizationId }).set('X-Request-Id', minted).expect(200)).body;
    const summary = { organization_id: organizationId, sha256: derFingerprint(Buffer.from(issued.certificate, 'base64')) };
    const recorded = await entry(t, minted);
    expect(recorded.response.body).toEqual({ certificate: summary, organization_id: organizationId, roles: ['PSP_AI'] });

    const used = newRequestId('used');
    await t.http.get('/v2/accounts').set(new Psd2Client(t, issued.certificate).headers({ Authorization: 'Bearer nope', 'X-Request-Id': used })).expect(401);
    expect((await entry(t, used)).request.headers['x-psd2-client-test-cert']).toEqual(summary);
  });

  it('contract §14 with §2: POST /sandbox/certificates is kept with certificate_pem as its organization id and DER fingerprint, ca_pem (no organization id) by its fingerprint alone, never a null', async () => {
    const organizationId = newOrganizationId();
    const id = newRequestId('issued');
    const issued = (await t.http.post('/sandbox/certificates').set({ Authorization: `Bearer ${ADMIN_KEY}`, 'X-Request-Id': id }).send({ organization_id: organizationId, roles: ['PSP_AI'] }).expect(201)).body;
    const recorded = await entry(t, id);
    // Over 4 KB as sent: the first 4 KB of the redacted answer, as a string (here all of it).
    expect(recorded.response.body_truncated).toBe(true);
    const answer = JSON.parse(recorded.response.body);
    expect(answer).toEqual({
      serial: issued.serial,
      certificate_pem: { organization_id: organizationId, sha256: derFingerprint(new X509Certificate(issued.certificate_pem).raw) },
      private_key_pem: '[redacted]',
      ca_pem: { sha256: derFingerprint(new X509Certificate(issued.ca_pem).raw) },
      pkcs12_base64: '[redacted]',
      pkcs12_password: '[redacted]',
    });
  });

  it('contract §14 with §2: an unreadable X-PSD2-CLIENT-TEST-CERT is kept as the fingerprint of what was sent, with no organization_id (never a null)', async () => {
    const id = newRequestId('unreadable');
    await t.http.get('/v2/accounts').set({ 'X-PSD2-CLIENT-TEST-CERT': 'not-a-certificate', Authorization: 'Bearer nope', 'X-Request-Id': id });
    expect((await entry(t, id)).request.headers['x-psd2-client-test-cert']).toEqual({ sha256: createHash('sha256').update('not-a-certificate').digest('hex') });
  });

  it('contract §14: no certificate (Base64 DER, PEM, Base64 of PEM, URL-encoded PEM) survives in a stored entry or an answer, in headers, query or body', async () => {
    const organizationId = newOrganizationId();
    const der64 = await certificate(['PSP_AI'], organizationId);
    const der = Buffer.from(der64, 'base64');
    const pem = new X509Certificate(der).toString();
    const pem64 = Buffer.from(pem).toString('base64');
    const issued = (await t.admin.post('/sandbox/certificates', { organization_id: newOrganizationId(), roles: [] }).expect(201)).body;
    const minted = (await t.http.get('/sandbox/test-certificate').expect(200)).body;
    const summary = { organization_id: organizationId, sha256: derFingerprint(der) };

    // A route of this test (not of the OpenAPI description): it answers what it was sent. PEM's line
    // breaks are control characters, refused (400) and recorded all the same.
    const id = newRequestId('certificates');
    await request(t.app.getHttpServer())
      .post('/test-journal/echo')
      .query({ cert: der64, pem })
      .set({ 'X-Request-Id': id, 'X-PSD2-CLIENT-TEST-CERT': pem64, 'X-Forwarded-Client-Cert': encodeURIComponent(pem) })
      .send({ certificate: der64, certificate_pem: pem, nested: { chain: [pem64, `subject=${organizationId}\n${pem}`] } })
      .expect(400);
    const recorded = await entry(t, id);
    expect(recorded.request.body).toEqual({ certificate: summary, certificate_pem: summary, nested: { chain: [summary, summary] } });
    expect(recorded.query).toEqual({ cert: summary, pem: summary });
    expect(recorded.request.headers).toMatchObject({ 'x-psd2-client-test-cert': summary, 'x-forwarded-client-cert': summary });
    const echoed = newRequestId('echoed');
    const sent = { certificate: der64, nested: { chain: [pem64] } };
    expect((await request(t.app.getHttpServer()).post('/test-journal/echo').set('X-Request-Id', echoed).send(sent).expect(201)).body).toEqual(sent);
    expect((await entry(t, echoed)).response.body).toEqual({ certificate: summary, nested: { chain: [summary] } });
    // The TPP of that certificate, on a route that reads it: its own entries carry the summary too.
    const asTpp = newRequestId('as-tpp');
    await t.http.get('/v2/accounts').set(new Psd2Client(t, pem64).headers({ Authorization: 'Bearer nope', 'X-Request-Id': asTpp })).expect(401);
    await flush(t);

    const certificates = [der64, pem64, minted.certificate, ...[issued.certificate_pem, issued.ca_pem].map((text: string) => new X509Certificate(text).raw.toString('base64'))];
    const pieces = certificates.flatMap(piecesOf);
    expect(pieces.length).toBeGreaterThanOrEqual(certificates.length * 4);
    const stored = JSON.stringify(await storedRows(t));
    const answered = JSON.stringify((await t.admin.get('/admin/requests').query({ limit: 500 }).expect(200)).body);
    const own = JSON.stringify((await t.http.get('/sandbox/requests').set(new Psd2Client(t, pem64).headers()).expect(200)).body);
    expect(own).toContain(asTpp);
    for (const piece of pieces) expect({ piece, stored: stored.includes(piece), answered: answered.includes(piece) || own.includes(piece) }).toEqual({ piece, stored: false, answered: false });
  });
});

describe('contract §14 request journal: bodies are measured as sent, and recorded at any depth', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ imports: [HintRaisingModule] });
  });
  afterAll(() => t.close());

  /** A compact JSON body of exactly `bytes` bytes: the secret, padded. */
  const paddedTo = (bytes: number, token: string) => {
    const empty = JSON.stringify({ token, note: '' });
    return JSON.stringify({ token, note: 'n'.repeat(bytes - Buffer.byteLength(empty)) });
  };

  it('contract §14: a body of exactly 4 KB as sent is kept whole, its secret redacted, though "[redacted]" is longer than the secret', async () => {
    const id = newRequestId('exactly-4k');
    const body = paddedTo(4096, 'x');
    expect(Buffer.byteLength(body)).toBe(4096);
    await request(t.app.getHttpServer()).post('/test-journal/echo').set({ 'X-Request-Id': id, 'Content-Type': 'application/json' }).send(body).expect(201);
    const recorded = await entry(t, id);
    const kept = { ...JSON.parse(body), token: '[redacted]' };
    expect(recorded.request).not.toHaveProperty('body_truncated');
    expect(recorded.request.body).toEqual(kept);
    // The echo answered the same 4096 bytes.
    expect(recorded.response).not.toHaveProperty('body_truncated');
    expect(recorded.response.body).toEqual(kept);
  });

  it('contract §14: a body over 4 KB as sent is kept as a string of its first 4 KB with body_truncated, its secret redacted, though redaction makes it shorter', async () => {
    const planted = secret('S3CR3T');
    const id = newRequestId('over-4k');
    const body = paddedTo(4097, planted);
    await request(t.app.getHttpServer()).post('/test-journal/echo').set({ 'X-Request-Id': id, 'Content-Type': 'application/json' }).send(body).expect(201);
    const recorded = await entry(t, id);
    for (const part of [recorded.request, recorded.response]) {
      expect(part.body_truncated).toBe(true);
      expect(JSON.parse(part.body)).toEqual({ ...JSON.parse(body), token: '[redacted]' });
    }
    expect(JSON.stringify(await storedRows(t))).not.toContain(planted);
  });

  it('contract §14: a body nested 100 000 levels deep is refused 400 and still recorded, cut to a string with body_truncated, its secret redacted; no entry is lost', async () => {
    const lostBefore = (await t.http.get('/health').expect(200)).body.details.journal.lost;
    const planted = secret('S3CR3T');
    const depth = 100_000;
    const body = `{"token":"${planted}","a":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}`;
    const id = newRequestId('deep');
    expectProblem(await t.http.post('/sandbox/eid/open').set({ 'X-Request-Id': id, 'Content-Type': 'application/json' }).send(body), 400, 'VALIDATION_FAILED');
    const recorded = await entry(t, id);
    expect(recorded).toMatchObject({ status: 400, reason_code: 'VALIDATION_FAILED', request: { body_truncated: true } });
    expect(recorded.request.body).toMatch(/^\{"token":"\[redacted\]","a":\{"a":\{"a":.*"\[nested deeper than \d+ levels\]"\}+$/);
    expect(Buffer.byteLength(recorded.request.body)).toBeLessThanOrEqual(4096);
    expect(JSON.stringify(await storedRows(t))).not.toContain(planted);
    expect((await t.http.get('/health').expect(200)).body.details.journal).toMatchObject({ lost: lostBefore, failed_writes: 0 });
  });
});

describe('contract §14 request journal: reading, filters, keyset pages and who sees what', () => {
  let t: TestApp;
  let a: { client: Psd2Client; organizationId: string };
  let b: { client: Psd2Client; organizationId: string };
  let partner: { partner_id: string; api_key: string };
  const ids = { a: [] as string[], b: [] as string[], partner: [] as string[] };
  let before: string;

  beforeAll(async () => {
    t = await createTestApp({ imports: [HintRaisingModule] });
    a = await tppOf(t);
    b = await tppOf(t);
    partner = await newPartner(t);
    before = new Date().toISOString();
    for (let i = 0; i < 5; i++) {
      const id = newRequestId(`a${i}`);
      ids.a.push(id);
      // Every second call of A is refused (no such token): 401s among 200s.
      if (i % 2 === 1) await t.http.get('/v2/accounts').set(a.client.headers({ 'X-Request-Id': id, Authorization: 'Bearer nope' })).expect(401);
      else await a.client.start({ user: await newUser(t), headers: { 'X-Request-Id': id } }).expect(200);
    }
    for (let i = 0; i < 2; i++) {
      const id = newRequestId(`b${i}`);
      ids.b.push(id);
      await b.client.start({ user: await newUser(t), headers: { 'X-Request-Id': id } }).expect(200);
    }
    for (let i = 0; i < 3; i++) {
      const id = newRequestId(`p${i}`);
      ids.partner.push(id);
      await t.http.post('/signing/1.0/start').set({ Authorization: `Bearer ${partner.api_key}`, 'X-Request-Id': id }).send({});
    }
    await flush(t);
  });
  afterAll(() => t.close());

  const adminList = async (query: Record<string, string | number>) => (await t.admin.get('/admin/requests').query(query).expect(200)).body;

  it('contract §14: newest first in arrival order, filtered by caller_kind and caller_id', async () => {
    const page = await adminList({ caller_kind: 'tpp', caller_id: a.organizationId });
    expect(page.entries.map((e: { request_id: string }) => e.request_id)).toEqual([...ids.a].reverse());
    expect(page).not.toHaveProperty('next_after');
    expect((await adminList({ caller_kind: 'partner', caller_id: partner.partner_id })).entries).toHaveLength(3);
    expect((await adminList({ caller_kind: 'partner', caller_id: a.organizationId })).entries).toEqual([]);
  });

  it('contract §14: filters by status, path_prefix, hint, since and until', async () => {
    const refused = await adminList({ caller_id: a.organizationId, status: 401 });
    expect(refused.entries.map((e: { request_id: string }) => e.request_id)).toEqual([ids.a[3], ids.a[1]]);
    const certificates = await adminList({ caller_id: a.organizationId, path_prefix: '/psd2/' });
    expect(certificates.entries.map((e: { request_id: string }) => e.request_id)).toEqual([ids.a[4], ids.a[2], ids.a[0]]);
    expect((await adminList({ since: before, path_prefix: '/signing/' })).entries).toHaveLength(3);
    expect((await adminList({ until: before, caller_id: a.organizationId })).entries).toEqual([]);

    const hinted = newRequestId('hinted');
    await request(t.app.getHttpServer()).post('/test-journal/hint').set('X-Request-Id', hinted).send({}).expect(201);
    await flush(t);
    const withHint = await adminList({ hint: 'EXCHANGE_BEFORE_COMPLETE' });
    expect(withHint.entries.map((e: { request_id: string }) => e.request_id)).toEqual([hinted]);
    expect((await adminList({ hint: 'TOKEN_EXPIRED', since: before })).entries).toEqual([]);
  });

  it('contract §14, §6: since and until are the half-open period [since, until) of arrival: an entry that arrived at until is not in it', async () => {
    const id = newRequestId('edge');
    await t.http.get('/sandbox/test-certificate').set('X-Request-Id', id).expect(200);
    const arrived = new Date((await entry(t, id)).arrived_at).getTime();
    const listed = async (since: number, until: number) =>
      (await adminList({ since: new Date(since).toISOString(), until: new Date(until).toISOString() })).entries.map((e: { request_id: string }) => e.request_id);
    expect(await listed(arrived, arrived + 1)).toEqual([id]);
    expect(await listed(arrived - 1, arrived)).not.toContain(id);
    expect(await listed(arrived + 1, arrived + 2)).not.toContain(id);
  });

  it('contract §14: keyset pages (limit, next_after → after) walk every entry once, newest first', async () => {
    const all = (await adminList({ since: before, limit: 500 })).entries.map((e: { request_id: string }) => e.request_id);
    const walked: string[] = [];
    let after: string | undefined;
    do {
      const page: { entries: Array<{ request_id: string }>; next_after?: string } = await adminList({ since: before, limit: 3, ...(after ? { after } : {}) });
      expect(page.entries.length).toBeLessThanOrEqual(3);
      walked.push(...page.entries.map((e) => e.request_id));
      after = page.next_after;
    } while (after !== undefined);
    expect(walked).toEqual(all);
    expect(walked.length).toBeGreaterThanOrEqual(10);
  });

  it('contract §2 with §14: a page with more after it names next_after; the last page of GET /admin/requests and of GET /sandbox/requests has none (never a null)', async () => {
    const first = (await t.admin.get('/admin/requests').query({ caller_id: a.organizationId, limit: 4 }).expect(200)).body;
    // Opaque (contract §14): not a number, 22 characters of base64url.
    expect(first.next_after).toEqual(expect.stringMatching(/^[A-Za-z0-9_-]{22}$/));
    const last = await t.admin.get('/admin/requests').query({ caller_id: a.organizationId, limit: 4, after: first.next_after }).expect(200);
    expect(last.body.entries).toHaveLength(1);
    expect(last.body).not.toHaveProperty('next_after');
    const own = await t.http.get('/sandbox/requests').set(a.client.headers()).query({ limit: 5 }).expect(200);
    expect(own.body.entries).toHaveLength(5);
    // Numbers in any JSON form (contract §2), in a query too.
    expect((await t.admin.get('/admin/requests').query({ limit: '5E0', status: '4.01e2' }).expect(200)).body.entries.every((e: { status: number }) => e.status === 401)).toBe(true);
    expect(own.body).not.toHaveProperty('next_after');
  });

  it.each([
    ['caller_kind', 'robot'],
    ['status', 'abc'],
    ['status', '99'],
    ['path_prefix', 'psd2'],
    ['hint', 'NO_SUCH_HINT'],
    ['since', 'yesterday'],
    ['until', '2026-11-24T10:00:00'],
    ['limit', '0'],
    ['limit', '501'],
    ['limit', '0x10'],
    ['limit', ''],
    ['after', 'x'],
  ])('contract §14: a bad %s (%p) is 400 VALIDATION_FAILED naming it, on both routes', async (name, value) => {
    expectValidationFailed(await t.admin.get('/admin/requests').query({ [name]: value }), name);
    expectValidationFailed(await t.http.get('/sandbox/requests').set(a.client.headers()).query({ [name]: value }), name);
  });

  it('contract §14: GET /sandbox/requests shows a TPP (by its certificate) its own entries only, its refused ones included', async () => {
    const own = (await t.http.get('/sandbox/requests').set(a.client.headers()).expect(200)).body;
    expect(own.entries.map((e: { request_id: string }) => e.request_id)).toEqual([...ids.a].reverse());
    expect(own.entries.every((e: { caller: { id: string } }) => e.caller.id === a.organizationId)).toBe(true);
    // The same filters apply, within its own entries.
    const refused = (await t.http.get('/sandbox/requests').set(a.client.headers()).query({ status: 401 }).expect(200)).body;
    expect(refused.entries).toHaveLength(2);
    expect((await t.http.get('/sandbox/requests').set(a.client.headers()).query({ caller_id: b.organizationId }).expect(200)).body.entries).toEqual([]);
  });

  it('contract §14: GET /sandbox/requests shows a partner (by its key) its own entries only', async () => {
    const own = (await t.http.get('/sandbox/requests').set('Authorization', `Bearer ${partner.api_key}`).expect(200)).body;
    expect(own.entries.map((e: { request_id: string }) => e.request_id)).toEqual([...ids.partner].reverse());
    const other = await newPartner(t);
    expect((await t.http.get('/sandbox/requests').set('Authorization', `Bearer ${other.api_key}`).expect(200)).body.entries).toEqual([]);
  });

  it('contract §14: GET /sandbox/requests/{request_id} answers the caller\'s own entry; another caller\'s is 404; no credentials is 401', async () => {
    const own = (await t.http.get(`/sandbox/requests/${ids.b[0]}`).set(b.client.headers()).expect(200)).body;
    expect(own).toMatchObject({ request_id: ids.b[0], caller: { kind: 'tpp', id: b.organizationId } });
    expectProblem(await t.http.get(`/sandbox/requests/${ids.b[0]}`).set(a.client.headers()), 404, 'NOT_FOUND');
    expectProblem(await t.http.get(`/sandbox/requests/${ids.a[0]}`).set('Authorization', `Bearer ${partner.api_key}`), 404, 'NOT_FOUND');
    expectProblem(await t.http.get(`/sandbox/requests/${ids.partner[0]}`).set(a.client.headers()), 404, 'NOT_FOUND');
    expectProblem(await t.http.get('/sandbox/requests'), 401);
    expectProblem(await t.http.get('/sandbox/requests').set('Authorization', 'Bearer not-a-partner-key-000000'), 401);
  });

  it('contract §14 with §13: a sandbox\'s journal is invisible from another sandbox', async () => {
    const created = (await t.http.post('/sandboxes').set(operator).send({ name: 'journal of B' }).expect(201)).body;
    const inB = newRequestId('in-b');
    await t.http.get(`/sandboxes/${created.sandbox_id}/v2/accounts`).set(a.client.headers({ 'X-Request-Id': inB, Authorization: 'Bearer nope' })).expect(401);
    await flush(t);
    const asB = { Authorization: `Bearer ${created.admin_key}` };
    const recorded = (await t.http.get(`/sandboxes/${created.sandbox_id}/admin/requests/${inB}`).set(asB).expect(200)).body;
    expect(recorded).toMatchObject({ path: '/v2/accounts', status: 401, caller: { kind: 'tpp', id: a.organizationId } });
    expectProblem(await t.admin.get(`/admin/requests/${inB}`), 404, 'NOT_FOUND');
    expect((await t.admin.get('/admin/requests').query({ limit: 500 }).expect(200)).body.entries.map((e: { request_id: string }) => e.request_id)).not.toContain(inB);
    // Nor does B see the default sandbox's entries, even the same TPP's.
    const bPage = (await t.http.get(`/sandboxes/${created.sandbox_id}/sandbox/requests`).set(a.client.headers()).expect(200)).body;
    expect(bPage.entries.map((e: { request_id: string }) => e.request_id)).toEqual([inB]);
    // A deleted sandbox's entries go with it; an entry buffered for it meanwhile is dropped, not a failed batch.
    const late = newRequestId('late');
    await t.http.get(`/sandboxes/${created.sandbox_id}/sandbox/test-certificate`).set('X-Request-Id', late).expect(200);
    await new Promise((resolve) => setImmediate(resolve));
    await t.http.delete(`/sandboxes/${created.sandbox_id}`).set(operator).expect(204);
    const alongside = newRequestId('alongside');
    await t.http.get('/sandbox/test-certificate').set('X-Request-Id', alongside).expect(200);
    await flush(t);
    expect(await storedRows(t, 'sandbox_id = $1', [created.sandbox_id])).toEqual([]);
    expect(await storedRows(t, 'request_id = $1', [alongside])).toHaveLength(1);
    expect((await t.http.get('/health').expect(200)).body.details.journal).toMatchObject({ lost: 0, failed_writes: 0 });
  });

  it('contract §13 Lifecycle with §14: a reset wipes the sandbox\'s journal with the rest of its data; the journal goes on after it', async () => {
    const created = (await t.http.post('/sandboxes').set(operator).send({ name: 'journal reset' }).expect(201)).body;
    const before = newRequestId('before-reset');
    await t.http.get(`/sandboxes/${created.sandbox_id}/sandbox/test-certificate`).set('X-Request-Id', before).expect(200);
    await flush(t);
    expect(await storedRows(t, 'sandbox_id = $1 AND request_id = $2', [created.sandbox_id, before])).toHaveLength(1);
    await t.http.post(`/sandboxes/${created.sandbox_id}/reset`).set(operator).expect(200);
    expect(await storedRows(t, 'sandbox_id = $1', [created.sandbox_id])).toEqual([]);
    const after = newRequestId('after-reset');
    await t.http.get(`/sandboxes/${created.sandbox_id}/sandbox/test-certificate`).set('X-Request-Id', after).expect(200);
    await flush(t);
    expect((await storedRows(t, 'sandbox_id = $1', [created.sandbox_id])).map((row) => row.request_id)).toEqual([after]);
  });
});

describe('contract §14 request journal: never fails a request, can be turned off, is pruned', () => {
  it('contract §14: a failing journal write does not fail the request; it is logged at warn and counted on /health', async () => {
    const t = await createTestApp();
    try {
      const dataSource = t.app.get(DataSource);
      await dataSource.query('ALTER TABLE journal_entry RENAME TO journal_entry_away');
      try {
        await t.http.get('/sandbox/test-certificate').expect(200);
        await flush(t);
      } finally {
        await dataSource.query('ALTER TABLE journal_entry_away RENAME TO journal_entry');
      }
      const health = (await t.http.get('/health').expect(200)).body;
      expect(health.details.journal).toMatchObject({ recording: true, failed_writes: 1, lost: expect.any(Number) });
      expect(health.details.journal.lost).toBeGreaterThanOrEqual(1);
      expect(t.logs.some((line) => line.level === 40 && line.msg === 'journal write failed: entries dropped')).toBe(true);
      // The journal goes on once the database takes writes again.
      const after = newRequestId('after');
      await t.http.get('/sandbox/test-certificate').set('X-Request-Id', after).expect(200);
      expect((await entry(t, after)).status).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('contract §14: entries still buffered are written when the app shuts down', async () => {
    const t = await createTestApp();
    // The embedded database goes with the app: what reached it is seen as the writes it answered.
    const store = t.app.get(JournalStore);
    const insert = store.insert.bind(store);
    const written: string[] = [];
    store.insert = async (batch: JournalBatch) => {
      const requestIds = batch.columns()[JOURNAL_ROW_COLUMNS.indexOf('request_id')] as string[];
      const count = await insert(batch);
      if (count > 0) written.push(...requestIds);
      return count;
    };
    const id = newRequestId('at-shutdown');
    try {
      await t.http.get('/sandbox/test-certificate').set('X-Request-Id', id).expect(200);
      // The entry is built once the answer is out; then the app stops, well within the writer's second.
      await new Promise((resolve) => setImmediate(resolve));
      expect(written).not.toContain(id);
    } finally {
      await t.close();
    }
    expect(written).toContain(id);
  });

  it('contract §14 (issue 16): the journal\'s reads by sandbox, by caller and by request id, and the age retention, are index-backed', async () => {
    const t = await createTestApp();
    try {
      const dataSource = t.app.get(DataSource);
      const plan = async (sql: string, parameters: unknown[]) => {
        // With a handful of rows a sequential scan is cheapest; with it off, the plan shows which index the query's shape can use.
        return dataSource.transaction(async (manager) => {
          await manager.query('SET LOCAL enable_seqscan = off');
          const rows: Array<{ 'QUERY PLAN': string }> = await manager.query(`EXPLAIN ${sql}`, parameters);
          return rows.map((row) => row['QUERY PLAN']).join('\n');
        });
      };
      // A page after a cursor (JournalRepository.page): newest first by arrival, then the entry's own tiebreak.
      const newestFirst = 'ORDER BY journal_entry.arrived_at DESC, journal_entry.tiebreak DESC';
      const after = `(arrived_at, tiebreak) < ('2026-11-24T09:00:00.000001Z'::timestamptz, 42::bigint)`;
      const pkey = await plan(`SELECT arrived_at FROM journal_entry WHERE sandbox_id = $1 AND ${after} ${newestFirst} LIMIT 101`, ['default']);
      expect(pkey).toMatch(/Index (Only )?Scan Backward using journal_entry_pkey/);
      // The cursor is an index condition, not a filter over the sandbox's entries.
      expect(pkey).toMatch(/Index Cond: .*ROW\(arrived_at, tiebreak\) </);
      expect(await plan(`SELECT arrived_at FROM journal_entry WHERE sandbox_id = $1 AND caller_kind = $2 AND caller_id = $3 AND ${after} ${newestFirst} LIMIT 101`, ['default', 'tpp', 'x'])).toMatch(
        /Index (Only )?Scan Backward using journal_entry_caller/,
      );
      expect(await plan(`SELECT arrived_at FROM journal_entry WHERE sandbox_id = $1 AND request_id = $2 ${newestFirst} LIMIT 1`, ['default', 'r-1'])).toMatch(/Index (Only )?Scan Backward using journal_entry_request_id/);
      // The age retention's statement (JournalStore.pruneOlderThan): the BRIN index's summaries, read as a bitmap.
      // On an empty table any index that holds arrived_at looks as cheap; on ten days of entries (analysed) BRIN is.
      await dataSource.query(
        `INSERT INTO journal_entry (sandbox_id, request_id, arrived_at, at, method, path, status, duration_ms, caller_kind, request, response)
         SELECT 'default', 'aged-' || g, now() - interval '10 days' + g * interval '1 minute', now(), 'GET', '/v2/accounts', 200, 1, 'anonymous', '{"headers":{}}', '{}'
         FROM generate_series(1, 14400) g`,
      );
      await dataSource.query('ANALYZE journal_entry');
      expect(await plan(`SELECT sandbox_id, arrived_at, tiebreak FROM journal_entry WHERE arrived_at <= COALESCE($3::timestamptz, now()) - make_interval(days => $1) LIMIT $2`, [7, 1000, null])).toMatch(/Bitmap Index Scan on journal_entry_arrived_at/);
      const [{ method }] = await dataSource.query(`SELECT am.amname AS method FROM pg_class c JOIN pg_am am ON am.oid = c.relam WHERE c.relname = 'journal_entry_arrived_at'`);
      expect(method).toBe('brin');
    } finally {
      await t.close();
    }
  });

  it('contract §14: JOURNAL=off records nothing and sends no Sandbox-Hints', async () => {
    const t = await createTestApp({ env: { JOURNAL: 'off' }, imports: [HintRaisingModule] });
    try {
      const res = await request(t.app.getHttpServer()).post('/test-journal/hint').send({}).expect(201);
      expect(res.headers['sandbox-hints']).toBeUndefined();
      await t.http.get('/sandbox/test-certificate').expect(200);
      await flush(t);
      expect(await storedRows(t)).toEqual([]);
      expect((await t.admin.get('/admin/requests').expect(200)).body).toEqual({ entries: [] });
      expect((await t.http.get('/health').expect(200)).body.details.journal).toMatchObject({ recording: false, written: 0 });
    } finally {
      await t.close();
    }
  });

  it('contract §14, §6: an entry is kept for JOURNAL_DAYS: a millisecond short of 7 days it stays, at exactly 7 days it goes', async () => {
    const t = await createTestApp({ env: { JOURNAL_DAYS: '7' } });
    try {
      const [young, old] = [newRequestId('young'), newRequestId('old')];
      await t.http.get('/sandbox/test-certificate').set('X-Request-Id', young).expect(200);
      await t.http.get('/sandbox/test-certificate').set('X-Request-Id', old).expect(200);
      await flush(t);
      // Real time cannot be moved: the instant ages are measured at is given (JournalStore.pruneOlderThan's asOf).
      const dataSource = t.app.get(DataSource);
      await dataSource.query(`UPDATE journal_entry SET arrived_at = '2001-01-01T00:00:00.001Z' WHERE request_id = $1`, [young]);
      await dataSource.query(`UPDATE journal_entry SET arrived_at = '2001-01-01T00:00:00Z' WHERE request_id = $1`, [old]);
      expect(await t.app.get(JournalStore).pruneOlderThan(7, 100, new Date('2001-01-08T00:00:00Z'))).toBe(1);
      const kept = (await storedRows(t)).map((row) => row.request_id);
      expect(kept).toContain(young);
      expect(kept).not.toContain(old);
    } finally {
      await t.close();
    }
  });

  it('contract §14: retention keeps the newest JOURNAL_MAX_ENTRIES per sandbox and drops entries older than JOURNAL_DAYS real days', async () => {
    const t = await createTestApp({ env: { JOURNAL_MAX_ENTRIES: '3', JOURNAL_DAYS: '7' } });
    try {
      const created = (await t.http.post('/sandboxes').set(operator).send({ name: 'retention' }).expect(201)).body;
      const inDefault: string[] = [];
      const inCreated: string[] = [];
      // Three entries in the default sandbox (no more than it keeps), five in the created one.
      for (let i = 0; i < 5; i++) {
        if (i < 3) {
          inDefault.push(newRequestId(`d${i}`));
          await t.http.get('/sandbox/test-certificate').set('X-Request-Id', inDefault[i]).expect(200);
        }
        inCreated.push(newRequestId(`c${i}`));
        await t.http.get(`/sandboxes/${created.sandbox_id}/sandbox/test-certificate`).set('X-Request-Id', inCreated[i]).expect(200);
      }
      await flush(t);
      // The first entry of the default sandbox arrived 8 real days ago (as if), the second 6 days ago.
      const dataSource = t.app.get(DataSource);
      await dataSource.query(`UPDATE journal_entry SET arrived_at = now() - interval '8 days' WHERE request_id = $1`, [inDefault[0]]);
      await dataSource.query(`UPDATE journal_entry SET arrived_at = now() - interval '6 days' WHERE request_id = $1`, [inDefault[1]]);
      // A scheduled pass (retention spans every sandbox; a sandbox's jobs/run does not prune others).
      await t.get(JobRunner).tick();
      const kept = async (sandboxId: string) =>
        (await storedRows(t, 'sandbox_id = $1', [sandboxId])).map((row) => row.request_id);
      // The age drops the one over 7 days though the count would keep it; the count keeps the 3 newest by arrival.
      expect(await kept('default')).toEqual(inDefault.slice(1));
      expect(await kept(created.sandbox_id)).toEqual(inCreated.slice(2));
    } finally {
      await t.close();
    }
  });
});

describeOnServer('contract §13 Lifecycle with §14: a journal entry never outlives its sandbox, in whatever order a batch and the deletion run (PostgreSQL server)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  /** A minimal journal row of the sandbox, as a batch writes one (the trigger runs on every write). */
  const insertEntry = (runner: QueryRunner, sandboxId: string, requestId: string) =>
    runner.query(
      `INSERT INTO journal_entry (sandbox_id, request_id, arrived_at, at, method, path, status, duration_ms, caller_kind, request, response)
       VALUES ($1, $2, now(), now(), 'GET', '/v2/accounts', 200, 1, 'anonymous', '{}', '{}')`,
      [sandboxId, requestId],
    );
  const rowsOf = async (sandboxId: string) => (await storedRows(t, 'sandbox_id = $1', [sandboxId])).length;
  /** Until a statement starting with `text` waits for a lock in this database; fails if `settled` comes first. */
  const waitingForLock = async (text: string, settled: Promise<unknown>) => {
    let done = false;
    void settled.then(() => (done = true), () => (done = true));
    for (;;) {
      const [{ n }] = await t.get(DataSource).query(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE $1`,
        [`${text}%`],
      );
      if (n > 0) return;
      if (done) throw new Error(`"${text}…" finished without waiting for a lock`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };

  it('a batch written first holds the sandbox: its deletion waits for the batch, then takes its entries too', async () => {
    const gone = (await t.http.post('/sandboxes').set(operator).send({ name: 'deleted after a batch', seed_demo: false }).expect(201)).body;
    const batch = t.get(DataSource).createQueryRunner();
    try {
      await batch.startTransaction();
      await insertEntry(batch, gone.sandbox_id, newRequestId('before-delete'));
      const deletion = t.http.delete(`/sandboxes/${gone.sandbox_id}`).set(operator).then((res) => res);
      await waitingForLock('DELETE FROM sandbox', deletion);
      await batch.commitTransaction();
      expect((await deletion).status).toBe(204);
    } finally {
      await batch.release();
    }
    expect(await rowsOf(gone.sandbox_id)).toBe(0);
  });

  it('a batch written while the deletion is uncommitted waits for it, then drops the deleted sandbox\'s entries and keeps the others', async () => {
    const gone = (await t.http.post('/sandboxes').set(operator).send({ name: 'deleted during a batch', seed_demo: false }).expect(201)).body;
    const deletion = t.get(DataSource).createQueryRunner();
    const batch = t.get(DataSource).createQueryRunner();
    const kept = newRequestId('kept');
    try {
      await deletion.startTransaction();
      await deletion.query(`DELETE FROM sandbox WHERE id = $1`, [gone.sandbox_id]);
      await batch.startTransaction();
      await insertEntry(batch, 'default', kept);
      const written = insertEntry(batch, gone.sandbox_id, newRequestId('during-delete'));
      await waitingForLock('INSERT INTO journal_entry', written);
      await deletion.commitTransaction();
      await written;
      await batch.commitTransaction();
    } finally {
      await deletion.release();
      await batch.release();
    }
    expect(await rowsOf(gone.sandbox_id)).toBe(0);
    expect(await storedRows(t, 'request_id = $1', [kept])).toHaveLength(1);
  });

  it('a batch written after the deletion committed leaves nothing of the deleted sandbox', async () => {
    const gone = (await t.http.post('/sandboxes').set(operator).send({ name: 'deleted before a batch', seed_demo: false }).expect(201)).body;
    await t.http.delete(`/sandboxes/${gone.sandbox_id}`).set(operator).expect(204);
    const batch = t.get(DataSource).createQueryRunner();
    try {
      await insertEntry(batch, gone.sandbox_id, newRequestId('after-delete'));
    } finally {
      await batch.release();
    }
    expect(await rowsOf(gone.sandbox_id)).toBe(0);
  });
});
