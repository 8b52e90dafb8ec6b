import { Body, Controller, Module, Post } from '@nestjs/common';
import fc from 'fast-check';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { JournalCertificates, JournalWriter, Public } from '@app/common';
import { expectValidationFailed } from './support/problems';
import { certificate, newOrganizationId, newUser, Psd2Client } from './support/psd2';
import { createTestApp, TestApp } from './support/test-app';

/** A route that answers what it was sent (res.json, as every JSON answer): its recorded answer must be redacted too. */
@Controller('test-redaction')
class EchoController {
  @Post('echo')
  @Public()
  echo(@Body() body: Record<string, unknown>): Record<string, unknown> {
    return { echoed: body };
  }
}

@Module({ controllers: [EchoController] })
class EchoModule {}

/** A secret value: distinctive, so finding it anywhere means it leaked. */
const secret = fc.stringMatching(/^[A-Za-z0-9_-]{20,32}$/).map((value) => `S3CR3T${value}`);
const oddCase = (text: string) => fc.array(fc.boolean(), { minLength: text.length, maxLength: text.length }).map((upper) => [...text].map((c, i) => (upper[i] ? c.toUpperCase() : c.toLowerCase())).join(''));
/** Secret names in the spellings contract §14 lists (and the parameter-only `code`). */
const spelledName = fc.constantFrom(
  'access_token', 'accessToken', 'access-token', 'ACCESS_TOKEN', 'a[access_token]', 'access_token[]', 'refreshToken', 'Pending-Code', 'pending_code',
  'autostarttoken', 'autoStartToken', 'qr_string', 'api_key', 'apiKey', 'client_secret', 'password', 'pkcs12_password', 'private_key_pem',
);
const parameterName = fc.oneof(spelledName, fc.constantFrom('code', 'key', 'KEY', 'Code'));
/** Headers whose name holds token, secret, key, auth, password, cookie, session or signature, in odd cases. */
const secretHeader = fc.constantFrom('X-Auth-Token', 'Api-Key', 'X-Client-Secret', 'X-Session', 'X-Signature', 'X-Password', 'Cookie', 'X-Api_Key', 'Authorization').chain(oddCase);
/** A secret inside a longer string: a launch link, a fragment, a redirect, quoted, JSON in a string. */
const inString = (planted: string) =>
  fc.constantFrom(
    `eid://autostarttoken=${planted}&redirect=null`,
    `bankid:///?autostarttoken=${planted}&redirect=null`,
    `https://tpp.example/cb#access_token=${planted}&state=1`,
    `https://tpp.example/cb?state=1&refresh_token=${planted}`,
    `go to ${encodeURIComponent(`https://tpp.example/cb?pending_code=${planted}`)} now`,
    `access_token="${planted}"`,
    JSON.stringify({ accessToken: planted }),
  );

/** What the journal kept, as stored and as every reader sees it. */
async function everywhereJournaled(t: TestApp, client: Psd2Client, requestIds: string[]): Promise<string> {
  await t.app.get(JournalWriter).flush();
  const texts = [
    JSON.stringify(await t.app.get(DataSource).query('SELECT * FROM journal_entry')),
    JSON.stringify((await t.admin.get('/admin/requests').query({ limit: 500 }).expect(200)).body),
    JSON.stringify((await t.http.get('/sandbox/requests').query({ limit: 500 }).set(client.headers()).expect(200)).body),
  ];
  let theTpps = 0;
  for (const id of requestIds) {
    // Every request was recorded, and the TPP reads its own (a public route's caller is anonymous).
    const entry = (await t.admin.get(`/admin/requests/${id}`).expect(200)).body as { caller: { kind: string } };
    texts.push(JSON.stringify(entry));
    if (entry.caller.kind !== 'tpp') continue;
    theTpps += 1;
    texts.push(JSON.stringify((await t.http.get(`/sandbox/requests/${id}`).set(client.headers()).expect(200)).body));
  }
  expect(theTpps).toBeGreaterThan(0);
  return texts.join('\n');
}

/** GET through a plain Node client, which sends a `#fragment` as written (supertest's URL parsing drops it). */
function rawGet(base: string, path: string, headers: Record<string, string>): Promise<number> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    httpRequest({ host: hostname, port, path, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    })
      .on('error', reject)
      .end();
  });
}

/** Every row of every table, as PostgreSQL's text of the row. */
async function everyRow(t: TestApp): Promise<string> {
  const dataSource = t.app.get(DataSource);
  const tables: Array<{ name: string }> = await dataSource.query(
    `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`,
  );
  const rows: string[] = [];
  for (const { name } of tables) rows.push(...(await dataSource.query<Array<{ row: string }>>(`SELECT r::text AS row FROM "${name}" r`)).map((r) => r.row));
  return rows.join('\n');
}

const shortHash = (key: string) => createHash('sha256').update(key).digest('hex').slice(0, 12);

describe('contract §14: one redaction for the journal and the logs', () => {
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    // trace: every request line with its headers, and every debug line, is written too.
    t = await createTestApp({ imports: [EchoModule], env: { LOG_LEVEL: 'trace' } });
    base = await t.listen();
  });
  afterAll(() => t.close());

  it('contract §14: no secret planted anywhere a client can put one (headers of secret-ish names in odd cases, query and form names in every spelling, JSON at any depth, inside longer strings, launch links, fragments) survives in a stored entry, a journal answer or a log line', async () => {
    const client = new Psd2Client(t, await certificate(['PSP_AI', 'PSP_PI'], newOrganizationId()));
    await fc.assert(
      fc.asyncProperty(secret, spelledName, parameterName, secretHeader, fc.nat({ max: 6 }), secret.chain((s) => inString(s).map((text) => ({ s, text }))), async (planted, name, parameter, header, depth, embedded) => {
        const ids = Array.from({ length: 6 }, () => `redaction-${randomUUID()}`);
        const headers = (id: string) => client.headers({ 'X-Request-Id': id, [header]: `Bearer ${planted}`, 'X-Note': embedded.text, Referer: `https://tpp.example/cb#access_token=${planted}` });
        const query = `${encodeURIComponent(parameter)}=${planted}&${encodeURIComponent(name)}=${planted}&${encodeURIComponent(name)}=${planted}&note=${encodeURIComponent(embedded.text)}`;
        // Sent as they are, without the OpenAPI check of t.http: a bearer given twice or not as a string is
        // another rule's (contract §2), and whatever the answer, the request is journaled and logged.
        const raw = () => request(t.app.getHttpServer());
        // Query and headers on a bank route (401: no token).
        await raw().get(`/v2/accounts?${query}`).set(headers(ids[0]));
        // A form at the token endpoint, its names in every spelling, a secret inside a value.
        await raw().post('/psd2/auth/1.0/token').set(headers(ids[1])).type('form').send(`grant_type=refresh_token&${encodeURIComponent(name)}=${planted}&${encodeURIComponent(parameter)}=${planted}&note=${encodeURIComponent(embedded.text)}`);
        // JSON at any depth, under a secret name and inside strings, answered back (its recorded answer holds them too).
        let document: Record<string, unknown> = { [name]: planted, list: [`in ${embedded.text}`, { [name]: [planted] }], note: embedded.text, code: 'KEPT' };
        for (let level = 0; level < depth; level++) document = level % 2 ? { wrapper: [document] } : { nested: document, also: `x ${embedded.text} y` };
        await raw().post('/test-redaction/echo').set(headers(ids[2])).send(document).expect(201);
        // A JSON body at a bank route that refuses it (400), kept with its refusal.
        await raw().post('/psd2/auth/3.0/status').set(headers(ids[3])).send({ pending_code: planted, [name]: { deep: planted }, note: embedded.text });
        // The url itself: its fragment and a parameter in its path (a client that sends them).
        expect(await rawGet(base, `/v2/accounts;pending_code=${planted}?x=1#access_token=${planted}`, headers(ids[4]))).toBeGreaterThanOrEqual(400);
        await raw().get(`/sandbox/test-certificate?roles=PSP_AI&${query}`).set(headers(ids[5]));

        const journaled = await everywhereJournaled(t, client, ids);
        const logged = JSON.stringify(t.logs);
        for (const value of [planted, embedded.s]) {
          expect({ value, journaled: journaled.includes(value) }).toEqual({ value, journaled: false });
          expect({ value, logged: logged.includes(value) }).toEqual({ value, logged: false });
        }
        // Kept, redacted: the test saw the places it planted in.
        const entry = (await t.admin.get(`/admin/requests/${ids[2]}`).expect(200)).body;
        expect(entry.request.headers[header.toLowerCase()]).toMatch(/^(Bearer )?\[redacted\]$/);
        expect(JSON.stringify(entry.response.body)).toContain('"code":"KEPT"');
      }),
      { numRuns: 12 },
    );
  });

  it('contract §14: a redaction that fails drops the entry, counted on /health as journal.redaction_failed, its value in no row, answer or line', async () => {
    const planted = `S3CR3T${randomBytes(12).toString('hex')}`;
    const certificates = t.app.get(JournalCertificates);
    const before = (await t.http.get('/health').expect(200)).body.details.journal;
    // A certificate reader that fails on this value (the redaction of the certificate header throws, quoting it).
    const throwing = (value: string) => {
      if (value.includes(planted)) throw new Error(`cannot read ${value}`);
      return null;
    };
    certificates.register(throwing);
    const id = `redaction-failure-${randomUUID()}`;
    try {
      await t.http.get('/sandbox/test-certificate').query({ roles: 'PSP_AI' }).set({ 'X-Request-Id': id, 'X-PSD2-CLIENT-TEST-CERT': planted }).expect(200);
      await t.app.get(JournalWriter).flush();
    } finally {
      // Certificates read by their fingerprint from here on: the lib's reader registers itself at start only.
      certificates.register(() => null);
    }
    await t.admin.get(`/admin/requests/${id}`).expect(404);
    const health = (await t.http.get('/health').expect(200)).body.details.journal;
    expect(health.redaction_failed).toBe(before.redaction_failed + 1);
    expect(health.lost).toBe(before.lost + 1);
    expect(t.logs.some((line) => line.level === 40 && line.msg === 'journal entry dropped: its redaction failed')).toBe(true);
    expect(JSON.stringify(await t.app.get(DataSource).query('SELECT * FROM journal_entry'))).not.toContain(planted);
    expect(JSON.stringify(t.logs)).not.toContain(planted);
  });
});

describe('contract §14, §15: the Idempotency-Key is its caller\'s secret', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { LOG_LEVEL: 'trace' } });
  });
  afterAll(() => t.close());

  it('contract §15: a reader of a TPP\'s journal entries cannot obtain its Idempotency-Key, and so cannot replay its authorize; the key is in no table, entry or log line, shown as [redacted sha256:…] so the TPP matches its retries', async () => {
    const organizationId = newOrganizationId();
    const tpp = new Psd2Client(t, await certificate(['PSP_AI', 'PSP_PI'], organizationId));
    const user = await newUser(t);
    const key = `key-${randomBytes(16).toString('hex')}`;
    const requestId = `authorize-${randomUUID()}`;
    const first = await tpp.start({ flow: 'authorize', user, headers: { 'Idempotency-Key': key, 'X-Request-Id': requestId } }).expect(200);
    const { pending_code: pendingCode, auto_start_token: autoStartToken } = first.body as { pending_code: string; auto_start_token: string };
    await t.app.get(JournalWriter).flush();

    // The attacker: anyone who knows the TPP's organization id gets a test certificate for it and reads its entries.
    const reader = new Psd2Client(t, await certificate(['PSP_AI', 'PSP_PI'], organizationId));
    const entries = (await t.http.get('/sandbox/requests').set(reader.headers()).expect(200)).body as { entries: Array<Record<string, any>> }; // eslint-disable-line @typescript-eslint/no-explicit-any
    const entry = entries.entries.find((candidate) => candidate.request_id === requestId)!;
    expect(entry.request.headers['idempotency-key']).toBe(`[redacted sha256:${shortHash(key)}]`);
    expect(entry.response.body).toMatchObject({ pending_code: '[redacted]', auto_start_token: '[redacted]' });
    const seen = [
      JSON.stringify(entries),
      JSON.stringify((await t.http.get(`/sandbox/requests/${requestId}`).set(reader.headers()).expect(200)).body),
      JSON.stringify((await t.admin.get('/admin/requests').query({ limit: 500 }).expect(200)).body),
    ].join('\n');
    for (const value of [key, pendingCode, autoStartToken]) expect({ value, seen: seen.includes(value) }).toEqual({ value, seen: false });

    // What the reader can send is not the key: the shown value is refused, its hash is another key (a fresh authorize, not the TPP's).
    const start = (client: Psd2Client, idempotencyKey: string) => client.start({ flow: 'authorize', user, headers: { 'Idempotency-Key': idempotencyKey } });
    expectValidationFailed(await start(reader, entry.request.headers['idempotency-key'] as string), 'Idempotency-Key');
    for (const guess of [shortHash(key), createHash('sha256').update(key).digest('hex')]) {
      const replay = await start(reader, guess).expect(200);
      expect(replay.headers['idempotent-replayed']).toBeUndefined();
      expect(replay.body.pending_code).not.toBe(pendingCode);
    }
    // The TPP, with its key, gets its answer again.
    const retry = await start(tpp, key).expect(200);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body.pending_code).toBe(pendingCode);

    // Stored nowhere in clear (the idempotency table keeps a SHA-256 lookup and an encrypted answer), logged nowhere, at trace level.
    await t.app.get(JournalWriter).flush();
    const rows = await everyRow(t);
    for (const form of [key, Buffer.from(key).toString('hex')]) expect({ form, stored: rows.includes(form) }).toEqual({ form, stored: false });
    const logged = JSON.stringify(t.logs);
    expect(logged).not.toContain(key);
    expect(logged).toContain(`[redacted sha256:${shortHash(key)}]`);
  });

  it('contract §15: IDEMPOTENCY_KEY_REUSED\'s 422 and a malformed key\'s 400 never echo the key, nor does the journal or a log line', async () => {
    const tpp = await Psd2Client.create(t);
    const user = await newUser(t);
    const key = `key-${randomBytes(16).toString('hex')}`;
    await tpp.start({ flow: 'authorize', user, headers: { 'Idempotency-Key': key } }).expect(200);
    const reused = await tpp.start({ flow: 'authorize', user, body: { end_user_ip: '192.0.2.10', start_mode: 'QR_CODE', scopes: 'AIS' }, headers: { 'Idempotency-Key': key } }).expect(422);
    expect(JSON.stringify(reused.body)).not.toContain(key);
    const malformed = `${key} with spaces`;
    const refused = await tpp.start({ flow: 'authorize', user, headers: { 'Idempotency-Key': malformed } }).expect(400);
    expect(JSON.stringify(refused.body)).not.toContain(key);
    await t.app.get(JournalWriter).flush();
    expect(JSON.stringify(t.logs)).not.toContain(key);
    expect(JSON.stringify(await t.app.get(DataSource).query('SELECT * FROM journal_entry'))).not.toContain(key);
  });
});
