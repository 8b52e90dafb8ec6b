import { randomUUID } from 'node:crypto';
import { type IncomingHttpHeaders, request as httpRequest } from 'node:http';
import { load } from 'js-yaml';
import { DataSource } from 'typeorm';
import { SandboxRegistry } from '@app/common';
import { SandboxesService } from '@app/sandbox';
import { expectProblem, expectValidationFailed } from './support/problems';
import { newPersonalNumber } from './support/personal-numbers';
import { rawRequest } from './support/raw-http';
import { type CreatedSandbox, rowCounts } from './support/sandboxes';
import { describeOnServer } from './support/server-only';
import { ADMIN_KEY, BASE_TIME, closeApps, createTestApp, TestApp, twoInstances } from './support/test-app';

type Created = CreatedSandbox;

const operator = { Authorization: `Bearer ${ADMIN_KEY}` };
const key = (value: string) => ({ Authorization: `Bearer ${value}` });
const LATER = '2030-06-01T12:00:00.000Z';
const preApprovalStatus = () => `/mortgage/2.0/pre-approval/${randomUUID()}/status`;

/** Every table that holds a sandbox's rows (contract §13: all of them go with it). */
const rowsOf = (t: TestApp, sandboxId: string) => rowCounts(t.app.get(DataSource), sandboxId);

describe('sandboxes (contract §13)', () => {
  let t: TestApp;
  const create = async (body: object = {}): Promise<Created> =>
    (await t.http.post('/sandboxes').set(operator).send({ name: 'ci run', ...body }).expect(201)).body;
  const inSandbox = (sb: Created, path: string) => `/sandboxes/${sb.sandbox_id}${path}`;

  beforeAll(async () => {
    t = await createTestApp({ env: { DOWNTIME_CALENDAR: 'off' } });
  });
  afterAll(() => t.close());

  describe('Lifecycle', () => {
    it('POST /sandboxes → 201 { sandbox_id (UUID), name, base_url (absolute, the request\'s host), admin_key, demo_partner_key, created_at, last_used_at }', async () => {
      const res = await t.http.post('/sandboxes').set(operator).set('Host', 'sandbox.example.com').send({ name: 'ci run 1' }).expect(201);
      expect(res.body).toEqual({
        sandbox_id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/),
        name: 'ci run 1',
        base_url: `http://sandbox.example.com/sandboxes/${res.body.sandbox_id}`,
        admin_key: expect.any(String),
        demo_partner_key: expect.any(String),
        created_at: expect.any(String),
        last_used_at: expect.any(String),
      });
    });

    it('base_url is absolute without a usable Host too: the address the request arrived on (contract §13 Lifecycle)', async () => {
      const base = new URL(await t.listen());
      const body = JSON.stringify({ name: 'no host' });
      const expectBaseUrl = (answer: { status: number; body: string }) => {
        expect(answer.status).toBe(201);
        const created = JSON.parse(answer.body) as Created;
        expect(created.base_url).toBe(`http://${base.host}/sandboxes/${created.sandbox_id}`);
      };
      // HTTP/1.0 may leave Host out.
      const http10 = `POST /sandboxes HTTP/1.0\r\nAuthorization: Bearer ${ADMIN_KEY}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
      expectBaseUrl(await rawRequest(base.href, Buffer.from(http10), { halfClose: false }));
      // An empty Host names no host (RFC 9112 §3.2 allows it); node:http with setHost: false sends the Host given, or none.
      const send = (method: string, path: string, headers: Record<string, string | number>, payload?: string) =>
        new Promise<{ status: number; headers: IncomingHttpHeaders; body: string }>((resolve, reject) => {
          const req = httpRequest({ host: base.hostname, port: base.port, method, path, setHost: false, headers: { Authorization: `Bearer ${ADMIN_KEY}`, ...headers } }, (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (chunk: Buffer) => chunks.push(chunk));
            res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
          });
          req.on('error', reject);
          req.end(payload);
        });
      const json = { 'Content-Type': 'application/json', 'Content-Length': body.length };
      expectBaseUrl(await send('POST', '/sandboxes', { ...json, Host: '' }, body));
      const listed = JSON.parse((await send('GET', '/sandboxes', { Host: '' })).body) as { sandboxes: Created[] };
      expect(listed.sandboxes.length).toBeGreaterThan(0);
      for (const sandbox of listed.sandboxes) expect(sandbox.base_url).toBe(`http://${base.host}/sandboxes/${sandbox.sandbox_id}`);
      // An HTTP/1.1 request without Host is refused (RFC 9112 §3.2), as every 400 is: a problem naming Host (contract §2).
      const hostless = await send('POST', '/sandboxes', json, body);
      expect(hostless.status).toBe(400);
      expect(hostless.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(hostless.headers['x-request-id']).toBeDefined();
      expect(JSON.parse(hostless.body)).toEqual({
        type: 'about:blank',
        title: 'Bad Request',
        status: 400,
        instance: '/sandboxes',
        reason: { code: 'VALIDATION_FAILED', message: expect.stringMatching(/^Host is required/) },
      });
    });

    it('its admin key opens its own /admin/clock (contract §13 Keys)', async () => {
      const sb = await create();
      const res = await t.http.get(inSandbox(sb, '/admin/clock')).set(key(sb.admin_key)).expect(200);
      expect(res.body).toEqual({ now: expect.any(String), frozen: false });
    });

    it('name must be 1–100 characters: 400 VALIDATION_FAILED naming name', async () => {
      for (const name of ['', 'x'.repeat(101)]) expectValidationFailed(await t.http.post('/sandboxes').set(operator).send({ name }), 'name');
      await t.http.post('/sandboxes').set(operator).send({ name: 'n'.repeat(100) }).expect(201);
    });

    it('seeds the demo set with the given demo partner key, and none with seed_demo false', async () => {
      const demoKey = `demo-partner-key-${randomUUID()}`;
      const seeded = await create({ demo_partner_key: demoKey });
      expect(seeded.demo_partner_key).toBe(demoKey);
      await t.http.get(inSandbox(seeded, '/admin/users/191212121212')).set(key(seeded.admin_key)).expect(200);
      await t.http.get(inSandbox(seeded, preApprovalStatus())).set(key(demoKey)).expect(404);
      const bare = await create({ seed_demo: false });
      expect(bare).not.toHaveProperty('demo_partner_key');
      await t.http.get(inSandbox(bare, '/admin/users/191212121212')).set(key(bare.admin_key)).expect(404);
    });

    it('clock at creation: the sandbox starts at that time', async () => {
      const sb = await create({ clock: { now: LATER, frozen: true } });
      expect((await t.http.get(inSandbox(sb, '/admin/clock')).set(key(sb.admin_key)).expect(200)).body).toEqual({ now: LATER, frozen: true });
    });

    it('downtime_calendar at creation: on in this sandbox while the service\'s DOWNTIME_CALENDAR is off', async () => {
      const sb = await create({ downtime_calendar: true, clock: { now: '2026-11-22T05:00:00+01:00', frozen: true } });
      expectProblem(await t.http.get(inSandbox(sb, '/v2/accounts')), 503, 'PLANNED_DOWNTIME');
      expect((await t.http.get(inSandbox(sb, '/sandbox/maintenance-windows')).expect(200)).body.active).not.toBeNull();
      await t.clock.freeze('2026-11-22T05:00:00+01:00');
      expect((await t.http.get('/sandbox/maintenance-windows').expect(200)).body.active).toBeNull();
      await t.clock.freeze(BASE_TIME);
    });

    it('fixture at creation: its users and partners are the sandbox\'s', async () => {
      const pn = newPersonalNumber();
      const partnerKey = `fixture-partner-key-${randomUUID()}`;
      const sb = await create({ seed_demo: false, fixture: { users: [{ personal_number: pn, name: 'Fixture Person', kyc_completed: true }], partners: [{ name: 'Fixture AB', api_key: partnerKey }] } });
      await t.http.get(inSandbox(sb, `/admin/users/${pn}`)).set(key(sb.admin_key)).expect(200);
      await t.http.get(inSandbox(sb, preApprovalStatus())).set(key(partnerKey)).expect(404);
      await t.admin.get(`/admin/users/${pn}`).expect(404);
    });

    it('GET /sandboxes/{id} with the operator key or its own admin key; keys never appear in GET answers', async () => {
      const sb = await create();
      for (const auth of [operator, key(sb.admin_key)]) {
        const res = await t.http.get(`/sandboxes/${sb.sandbox_id}`).set(auth).expect(200);
        expect(res.body).toEqual({ sandbox_id: sb.sandbox_id, name: sb.name, base_url: expect.stringMatching(new RegExp(`^http://127\\.0\\.0\\.1:\\d+/sandboxes/${sb.sandbox_id}$`)), created_at: sb.created_at, last_used_at: expect.any(String) });
        expect(res.text).not.toContain(sb.admin_key);
        expect(res.text).not.toContain(sb.demo_partner_key);
      }
      const list = await t.http.get('/sandboxes').query({ limit: 500 }).set(operator).expect(200);
      expect(list.text).not.toContain(sb.admin_key);
      expect(list.text).not.toContain(sb.demo_partner_key);
    });

    it('GET /sandboxes pages by keyset (limit, after, next_after) and lists the default sandbox as id and name "default"', async () => {
      await create();
      await create();
      const seen: string[] = [];
      let after: string | undefined;
      do {
        const res = await t.http.get('/sandboxes').query({ limit: 1, ...(after ? { after } : {}) }).set(operator).expect(200);
        expect(res.body.sandboxes.length).toBeLessThanOrEqual(1);
        seen.push(...res.body.sandboxes.map((s: { sandbox_id: string }) => s.sandbox_id));
        if (res.body.sandboxes.some((s: { sandbox_id: string; name: string }) => s.sandbox_id === 'default')) {
          expect(res.body.sandboxes[0].name).toBe('default');
        }
        after = res.body.next_after;
      } while (after);
      expect(seen).toContain('default');
      expect(new Set(seen).size).toBe(seen.length);
      const all = await t.http.get('/sandboxes').query({ limit: 500 }).set(operator).expect(200);
      expect(all.body.sandboxes.map((s: { sandbox_id: string }) => s.sandbox_id)).toEqual(seen);
      expectValidationFailed(await t.http.get('/sandboxes').query({ limit: 501 }).set(operator), 'limit');
    });

    it('GET /sandboxes?after= that is no sandbox id, or a limit not written as a number: 400 naming it, not an empty page (contract §2, §13)', async () => {
      for (const after of ['garbage', '', 'DEFAULT ', '3F2B8C1E-6A4D-4E8B-9C1A-2D5E7F9A0B1']) {
        expectValidationFailed(await t.http.get('/sandboxes').query({ after }).set(operator), 'after');
      }
      for (const limit of ['', '0x10', ' 10', 'ten']) {
        expectValidationFailed(await t.http.get('/sandboxes').query({ limit }).set(operator), 'limit');
      }
    });

    it('POST /sandboxes with a fixture or clock that is not a JSON object: 400 naming it, nothing created (contract §2, §13)', async () => {
      const before = (await t.http.get('/sandboxes').query({ limit: 500 }).set(operator).expect(200)).body.sandboxes.length;
      expectValidationFailed(await t.http.post('/sandboxes').set(operator).send({ name: 'array-fixture', fixture: [] }), 'fixture');
      expectValidationFailed(await t.http.post('/sandboxes').set(operator).send({ name: 'array-clock', clock: [] }), 'clock');
      expect((await t.http.get('/sandboxes').query({ limit: 500 }).set(operator).expect(200)).body.sandboxes).toHaveLength(before);
    });

    it('POST /sandboxes with a fixture whose array item is no JSON object: 400 naming its path, never a 500, nothing created (contract §2, §13)', async () => {
      const before = (await t.http.get('/sandboxes').query({ limit: 500 }).set(operator).expect(200)).body.sandboxes.length;
      const user = { personal_number: newPersonalNumber(), name: 'T', kyc_completed: true };
      const fixtures: Array<[object, string]> = [
        [{ tpps: [[]] }, 'fixture.tpps.0'],
        [{ partners: [[]] }, 'fixture.partners.0'],
        [{ users: [{ ...user, accounts: [[]] }] }, 'fixture.users.0.accounts.0'],
      ];
      for (const [fixture, path] of fixtures) {
        expectValidationFailed(await t.http.post('/sandboxes').set(operator).send({ name: 'x', fixture }), path);
      }
      expect((await t.http.get('/sandboxes').query({ limit: 500 }).set(operator).expect(200)).body.sandboxes).toHaveLength(before);
    });

    it('POST /sandboxes with a fixture user\'s malformed personal number: 400 naming fixture.users.0.personal_number, nothing created (contract §2, §13)', async () => {
      const before = (await t.http.get('/sandboxes').query({ limit: 500 }).set(operator).expect(200)).body.sandboxes.length;
      const fixture = { users: [{ personal_number: '199001011238', name: 'Bad Check Digit', kyc_completed: true }] };
      const res = await t.http.post('/sandboxes').set(operator).send({ name: 'bad-fixture-user', fixture });
      expect(expectProblem(res, 400, 'VALIDATION_FAILED').reason.message).toMatch(/^fixture\.users\.0\.personal_number /);
      expect((await t.http.get('/sandboxes').query({ limit: 500 }).set(operator).expect(200)).body.sandboxes).toHaveLength(before);
    });

    it('DELETE /sandboxes/{id} → 204; then every route under it is 404 and no table holds a row of it', async () => {
      const sb = await create({ fixture: { users: [{ personal_number: newPersonalNumber(), name: 'Gone', kyc_completed: true }] } });
      expect(Object.values(await rowsOf(t, sb.sandbox_id)).some((n) => n > 0)).toBe(true);
      await t.http.delete(`/sandboxes/${sb.sandbox_id}`).set(operator).expect(204);
      expectProblem(await t.http.get(inSandbox(sb, '/admin/clock')).set(key(sb.admin_key)), 404, 'NOT_FOUND');
      expectProblem(await t.http.get(inSandbox(sb, '/sandbox/maintenance-windows')), 404, 'NOT_FOUND');
      expectProblem(await t.http.get(`/sandboxes/${sb.sandbox_id}`).set(operator), 404, 'NOT_FOUND');
      expectProblem(await t.http.delete(`/sandboxes/${sb.sandbox_id}`).set(operator), 404, 'NOT_FOUND');
      expect(Object.entries(await rowsOf(t, sb.sandbox_id)).filter(([, n]) => n > 0)).toEqual([]);
      const [{ n }] = await t.app.get(DataSource).query(`SELECT count(*)::int AS n FROM sandbox_clock WHERE sandbox_id = $1`, [sb.sandbox_id]);
      expect(n).toBe(0);
    });

    it('deleted with its own key, its lifecycle routes answer 404 to that key too, and to no key: an unknown sandbox is 404 before credentials (contract §1 order, §13)', async () => {
      const sb = await create();
      await t.http.delete(`/sandboxes/${sb.sandbox_id}`).set(key(sb.admin_key)).expect(204);
      expectProblem(await t.http.get(`/sandboxes/${sb.sandbox_id}`).set(key(sb.admin_key)), 404, 'NOT_FOUND');
      expectProblem(await t.http.post(`/sandboxes/${sb.sandbox_id}/reset`).set(key(sb.admin_key)), 404, 'NOT_FOUND');
      expectProblem(await t.http.delete(`/sandboxes/${sb.sandbox_id}`).set(key(sb.admin_key)), 404, 'NOT_FOUND');
      expectProblem(await t.http.get(`/sandboxes/${randomUUID()}`), 404, 'NOT_FOUND');
      // An existing sandbox still needs its key.
      expectProblem(await t.http.get(`/sandboxes/${(await create()).sandbox_id}`), 401, 'UNAUTHORIZED');
    });

    it('last_used_at records the last request under its prefix, to the minute', async () => {
      const sb = await create();
      await t.app.get(DataSource).query(`UPDATE sandbox SET last_used_at = '2020-01-01T00:00:00Z' WHERE id = $1`, [sb.sandbox_id]);
      await t.http.get(inSandbox(sb, '/sandbox/maintenance-windows')).expect(200);
      const lastUsed = Date.parse((await t.http.get(`/sandboxes/${sb.sandbox_id}`).set(operator).expect(200)).body.last_used_at);
      expect(lastUsed % 60_000).toBe(0);
      expect(Math.abs(lastUsed - Date.now())).toBeLessThan(2 * 60_000);
    });

    it('the default sandbox\'s last_used_at records its last request too, at the root or under /sandboxes/default (contract §13)', async () => {
      const db = t.app.get(DataSource);
      for (const path of ['/sandbox/maintenance-windows', '/sandboxes/default/sandbox/maintenance-windows']) {
        await db.query(`UPDATE sandbox SET last_used_at = '2020-01-01T00:00:00Z' WHERE id = 'default'`);
        // This instance writes a sandbox's last use at most once a minute: as if it had not yet this minute.
        t.app.get(SandboxRegistry).forget('default');
        await t.http.get(path).expect(200);
        const lastUsed = Date.parse((await t.http.get('/sandboxes/default').set(operator).expect(200)).body.last_used_at);
        expect(lastUsed % 60_000).toBe(0);
        expect(Math.abs(lastUsed - Date.now())).toBeLessThan(2 * 60_000);
      }
    });

    it('requests in flight into a sandbox deleted elsewhere answer 404, never 500', async () => {
      const sb = await create({ seed_demo: false });
      await t.http.get(inSandbox(sb, '/admin/clock')).set(operator).expect(200);
      // Deleted around this instance (as another instance would): its routing still remembers it for under a second.
      await t.app.get(DataSource).query(`DELETE FROM sandbox WHERE id = $1`, [sb.sandbox_id]);
      expectProblem(await t.http.put(inSandbox(sb, `/admin/users/${newPersonalNumber()}`)).set(operator).send({ name: 'Late', kyc_completed: true }), 404, 'NOT_FOUND');
      expectProblem(await t.http.get(inSandbox(sb, '/admin/clock')).set(operator), 404, 'NOT_FOUND');
    });

    it('its own admin key deletes its own sandbox', async () => {
      const sb = await create();
      await t.http.delete(`/sandboxes/${sb.sandbox_id}`).set(key(sb.admin_key)).expect(204);
    });

    it('the default sandbox cannot be deleted: 409 INVALID_STATE, and its data stays', async () => {
      const pn = newPersonalNumber();
      await t.admin.put(`/admin/users/${pn}`, { name: 'Stays', kyc_completed: true }).expect(201);
      expectProblem(await t.http.delete('/sandboxes/default').set(operator), 409, 'INVALID_STATE');
      await t.admin.get(`/admin/users/${pn}`).expect(200);
      expect((await t.http.get('/sandboxes/default').set(operator).expect(200)).body).toMatchObject({ sandbox_id: 'default', name: 'default' });
    });

    it('POST /sandboxes/{id}/reset → 200: same id and keys, data wiped and reseeded, clock back to its creation setting', async () => {
      const demoKey = `demo-partner-key-${randomUUID()}`;
      const sb = await create({ demo_partner_key: demoKey, clock: { now: LATER, frozen: true } });
      const pn = newPersonalNumber();
      await t.http.put(inSandbox(sb, `/admin/users/${pn}`)).set(key(sb.admin_key)).send({ name: 'Wiped', kyc_completed: true }).expect(201);
      await t.http.post(inSandbox(sb, '/admin/clock/advance')).set(key(sb.admin_key)).send({ seconds: 3600 }).expect(200);
      const reset = await t.http.post(`/sandboxes/${sb.sandbox_id}/reset`).set(key(sb.admin_key)).expect(200);
      expect(reset.body).toEqual({ sandbox_id: sb.sandbox_id, name: sb.name, base_url: expect.stringMatching(new RegExp(`^http://127\\.0\\.0\\.1:\\d+/sandboxes/${sb.sandbox_id}$`)), created_at: sb.created_at, last_used_at: expect.any(String) });
      await t.http.get(inSandbox(sb, `/admin/users/${pn}`)).set(key(sb.admin_key)).expect(404);
      await t.http.get(inSandbox(sb, '/admin/users/191212121212')).set(key(sb.admin_key)).expect(200);
      await t.http.get(inSandbox(sb, preApprovalStatus())).set(key(demoKey)).expect(404);
      expect((await t.http.get(inSandbox(sb, '/admin/clock')).set(key(sb.admin_key)).expect(200)).body).toEqual({ now: LATER, frozen: true });
    });
  });

  describe('Isolation', () => {
    it('the same personal number in two sandboxes is two users: one created in A is unknown in B and at the root', async () => {
      const [a, b] = [await create(), await create()];
      const pn = newPersonalNumber();
      await t.http.put(inSandbox(a, `/admin/users/${pn}`)).set(key(a.admin_key)).send({ name: 'In A', kyc_completed: true }).expect(201);
      await t.http.get(inSandbox(b, `/admin/users/${pn}`)).set(key(b.admin_key)).expect(404);
      await t.admin.get(`/admin/users/${pn}`).expect(404);
      await t.http.put(inSandbox(b, `/admin/users/${pn}`)).set(key(b.admin_key)).send({ name: 'In B', kyc_completed: false }).expect(201);
      expect((await t.http.get(inSandbox(a, `/admin/users/${pn}`)).set(key(a.admin_key)).expect(200)).body.name).toBe('In A');
    });

    it('a partner key of A is 401 in B', async () => {
      const [a, b] = [await create(), await create({ seed_demo: false })];
      await t.http.get(inSandbox(a, preApprovalStatus())).set(key(a.demo_partner_key!)).expect(404);
      expectProblem(await t.http.get(inSandbox(b, preApprovalStatus())).set(key(a.demo_partner_key!)), 401, 'UNAUTHORIZED');
    });

    it("moving A's clock moves neither B's nor the default sandbox's (contract §6)", async () => {
      const [a, b] = [await create(), await create()];
      await t.clock.freeze(BASE_TIME);
      const before = await t.clock.now();
      await t.http.put(inSandbox(a, '/admin/clock')).set(key(a.admin_key)).send({ now: LATER, frozen: true }).expect(200);
      expect((await t.http.get(inSandbox(a, '/admin/clock')).set(key(a.admin_key)).expect(200)).body.now).toBe(LATER);
      expect((await t.http.get(inSandbox(b, '/admin/clock')).set(key(b.admin_key)).expect(200)).body).toMatchObject({ frozen: false });
      expect(await t.clock.now()).toBe(before);
    });
  });

  describe('Keys', () => {
    it("another sandbox's admin key is 401 on its admin routes and its lifecycle routes", async () => {
      const [a, b] = [await create(), await create()];
      expectProblem(await t.http.get(inSandbox(b, '/admin/clock')).set(key(a.admin_key)), 401, 'UNAUTHORIZED');
      expectProblem(await t.http.get(`/sandboxes/${b.sandbox_id}`).set(key(a.admin_key)), 401, 'UNAUTHORIZED');
      expectProblem(await t.http.delete(`/sandboxes/${b.sandbox_id}`).set(key(a.admin_key)), 401, 'UNAUTHORIZED');
      expectProblem(await t.http.post(`/sandboxes/${b.sandbox_id}/reset`).set(key(a.admin_key)), 401, 'UNAUTHORIZED');
    });

    it("a sandbox's admin key opens neither the root's /admin/* nor POST or GET /sandboxes", async () => {
      const sb = await create();
      expectProblem(await t.http.get('/admin/clock').set(key(sb.admin_key)), 401, 'UNAUTHORIZED');
      expectProblem(await t.http.get('/sandboxes').set(key(sb.admin_key)), 401, 'UNAUTHORIZED');
      expectProblem(await t.http.post('/sandboxes').set(key(sb.admin_key)).send({ name: 'no' }), 401, 'UNAUTHORIZED');
    });

    it('the operator key opens every sandbox\'s /admin/*', async () => {
      const sb = await create();
      await t.http.get(inSandbox(sb, '/admin/clock')).set(operator).expect(200);
      await t.http.get('/sandboxes/default/admin/clock').set(operator).expect(200);
    });
  });

  describe('Addressing and Unknown sandbox', () => {
    it('a well-formed unknown id is 404 NOT_FOUND on a bank route, /admin/* and /openapi.json', async () => {
      const id = randomUUID();
      expectProblem(await t.http.get(`/sandboxes/${id}/v2/accounts`), 404, 'NOT_FOUND');
      expectProblem(await t.http.get(`/sandboxes/${id}/admin/clock`).set(operator), 404, 'NOT_FOUND');
      expectProblem(await t.http.get(`/sandboxes/${id}/openapi.json`), 404, 'NOT_FOUND');
    });

    it('a malformed id is 400 VALIDATION_FAILED naming sandbox_id on a bank route, /admin/* and /openapi.json', async () => {
      expectValidationFailed(await t.http.get('/sandboxes/not-a-uuid/v2/accounts'), 'sandbox_id');
      expectValidationFailed(await t.http.get('/sandboxes/not-a-uuid/admin/clock').set(operator), 'sandbox_id');
      expectValidationFailed(await t.http.get('/sandboxes/not-a-uuid/openapi.json'), 'sandbox_id');
      expectValidationFailed(await t.http.get('/sandboxes/not-a-uuid').set(operator), 'sandbox_id');
    });

    it('an unknown sandbox at the token endpoints answers in their own shape (contract §2)', async () => {
      const res = await t.http.post(`/sandboxes/${randomUUID()}/psd2/auth/1.0/token`).type('form').send({ grant_type: 'x' }).expect(404);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.body).toEqual({ error: 'invalid_request', error_description: expect.stringContaining('No sandbox') });
    });

    it('/sandboxes/default/... is the default sandbox', async () => {
      const pn = newPersonalNumber();
      await t.admin.put(`/admin/users/${pn}`, { name: 'Root', kyc_completed: true }).expect(201);
      await t.http.get(`/sandboxes/default/admin/users/${pn}`).set(operator).expect(200);
    });

    it("a retired path's Link names the successor under the same prefix (contract §12)", async () => {
      const sb = await create({ clock: { now: '2024-04-30T12:00:00+02:00', frozen: true } });
      const res = await t.http.get(inSandbox(sb, '/psd2/auth/1.0/authenticate'));
      expectProblem(res, 501, 'NOT_SIMULATED');
      expect(res.headers.link).toBe(`</sandboxes/${sb.sandbox_id}/psd2/auth/3.0/authenticate>; rel="successor-version"`);
    });

    it('the eid simulator page under a prefix keeps its links and calls in that sandbox', async () => {
      const sb = await create();
      const res = await t.http.get(inSandbox(sb, '/sandbox/eid')).set('Accept', 'text/html').expect(200);
      expect(res.text).toContain(`data-page-path="/sandboxes/${sb.sandbox_id}/sandbox/eid"`);
      expect(res.text).toContain(`action="/sandboxes/${sb.sandbox_id}/sandbox/eid"`);
      expect(res.text).not.toMatch(/(action|href|src)="\/sandbox\//);
    });

    it('/docs is served under a prefix too', async () => {
      const sb = await create();
      const res = await t.http.get(inSandbox(sb, '/docs')).redirects(1);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
    });

    it('/openapi.json under a prefix names the prefix as its server; /health is at the root only', async () => {
      const sb = await create();
      const doc = await t.http.get(inSandbox(sb, '/openapi.json')).expect(200);
      expect(doc.body.servers).toEqual([expect.objectContaining({ url: `/sandboxes/${sb.sandbox_id}` })]);
      await t.http.get('/health').expect(200);
      expectProblem(await t.http.get(inSandbox(sb, '/health')), 404, 'NOT_FOUND');
    });

    it('/mortgage/openapi.yaml under a prefix names the prefix as its server too, with and without /partner; at the root, the origin (contract §13 Addressing)', async () => {
      const sb = await create();
      for (const path of ['/mortgage/openapi.yaml', '/partner/mortgage/openapi.yaml']) {
        const part = load((await t.http.get(inSandbox(sb, path)).expect(200)).text) as { servers: Array<{ url: string }>; paths: object };
        expect(part.servers).toEqual([expect.objectContaining({ url: `/sandboxes/${sb.sandbox_id}` })]);
        expect(Object.keys(part.paths)).toContain('/signing/1.0/start');
      }
      const root = load((await t.http.get('/mortgage/openapi.yaml').expect(200)).text) as { servers: Array<{ url: string }> };
      expect(root.servers).toEqual([expect.objectContaining({ url: '/' })]);
    });
  });
});

describe('sandboxes without ADMIN_API_KEY (contract §13 Keys)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { ADMIN_API_KEY: '' }, keepClock: true });
  });
  afterAll(() => t.close());

  it('the default sandbox\'s admin stays 403, and POST /sandboxes is refused', async () => {
    expectProblem(await t.http.get('/admin/clock').set(operator), 403, 'FORBIDDEN');
    expectProblem(await t.http.post('/sandboxes').set(operator).send({ name: 'no' }), 403, 'FORBIDDEN');
  });

  it("a created sandbox's own admin key still works", async () => {
    const sb = await t.get(SandboxesService).create({ name: 'self-administered' }, 'http://localhost');
    await t.http.get(`/sandboxes/${sb.sandbox_id}/admin/clock`).set(key(sb.admin_key)).expect(200);
    await t.http.get(`/sandboxes/${sb.sandbox_id}`).set(key(sb.admin_key)).expect(200);
    expectProblem(await t.http.get(`/sandboxes/${sb.sandbox_id}/admin/clock`).set(operator), 401, 'UNAUTHORIZED');
  });
});

describe('SANDBOX_MAX (contract §13)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { SANDBOX_MAX: '1' }, keepClock: true });
  });
  afterAll(() => t.close());

  it('over SANDBOX_MAX: 409 SANDBOX_LIMIT_REACHED, nothing written; the default sandbox does not count', async () => {
    const first = (await t.http.post('/sandboxes').set(operator).send({ name: 'the one' }).expect(201)).body;
    expectProblem(await t.http.post('/sandboxes').set(operator).send({ name: 'one too many' }), 409, 'SANDBOX_LIMIT_REACHED');
    const list = await t.http.get('/sandboxes').set(operator).expect(200);
    expect(list.body.sandboxes.map((s: { sandbox_id: string }) => s.sandbox_id).sort()).toEqual([first.sandbox_id, 'default'].sort());
    await t.http.delete(`/sandboxes/${first.sandbox_id}`).set(operator).expect(204);
    await t.http.post('/sandboxes').set(operator).send({ name: 'room again' }).expect(201);
  });

  it('POST /sandboxes/default/reset wipes the default sandbox and returns it to real time', async () => {
    const pn = newPersonalNumber();
    await t.admin.put(`/admin/users/${pn}`, { name: 'Wiped', kyc_completed: true }).expect(201);
    await t.clock.freeze(LATER);
    const res = await t.http.post('/sandboxes/default/reset').set(operator).expect(200);
    expect(res.body).toMatchObject({ sandbox_id: 'default', name: 'default' });
    await t.admin.get(`/admin/users/${pn}`).expect(404);
    const clock = await t.clock.read();
    expect(clock.frozen).toBe(false);
    expect(Math.abs(Date.parse(clock.now) - Date.now())).toBeLessThan(60_000);
  });
});

describeOnServer('sandboxes on two instances (contract §13 Lifecycle)', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    [a, b] = await twoInstances();
  });
  afterAll(() => closeApps(a, b));

  it('created on one, usable on the other at once; deleted on one, 404 on the other within a second', async () => {
    const sb: Created = (await a.http.post('/sandboxes').set(operator).send({ name: 'shared' }).expect(201)).body;
    await b.http.get(`/sandboxes/${sb.sandbox_id}/admin/clock`).set(key(sb.admin_key)).expect(200);
    await a.http.delete(`/sandboxes/${sb.sandbox_id}`).set(operator).expect(204);
    expectProblem(await a.http.get(`/sandboxes/${sb.sandbox_id}/sandbox/maintenance-windows`), 404, 'NOT_FOUND');
    // Within a second, re-asked for up to 1.5 s of real time as clients do (request time included).
    const deadline = Date.now() + 1500;
    let status: number;
    do {
      status = (await b.http.get(`/sandboxes/${sb.sandbox_id}/sandbox/maintenance-windows`)).status;
      if (status === 404) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    } while (Date.now() < deadline);
    expect(status).toBe(404);
  });
});
