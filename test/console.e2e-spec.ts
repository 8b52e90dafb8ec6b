import { randomUUID } from 'node:crypto';
import { JournalWriter } from '@app/common';
import { DataSource } from 'typeorm';
import { expectProblem } from './support/problems';
import { newUser, Psd2Client } from './support/psd2';
import { createSandbox, sandboxView } from './support/sandboxes';
import { ADMIN_KEY, BASE_TIME, createTestApp, type TestApp } from './support/test-app';

const HTML = { Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
const operator = { Authorization: `Bearer ${ADMIN_KEY}` };

/**
 * The console's server side (contract §13 Addressing, §14 Console): GET / and GET /sandboxes/{id}
 * for a browser, the same facts as JSON for anyone else, and the admin reads the page makes.
 * test/console-page drives the page itself in Chromium.
 */
describe('console (contract §14)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ frozenAt: BASE_TIME });
  });
  afterAll(() => t.close());
  beforeEach(() => t.clock.freeze());

  it('contract §14 Console: GET / asked for text/html is the default sandbox\'s home page, with its clock and the links', async () => {
    const res = await t.http.get('/').set(HTML).expect(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.text).toContain('<h1>Default sandbox</h1>');
    expect(res.text).toContain('<time id="clock-now" datetime="2026-11-24T09:00:00.000Z">2026-11-24T10:00:00+01:00</time>');
    expect(res.text).toContain('<span id="clock-state">frozen</span>');
    for (const href of ['/docs', '/openapi.json', '/sandbox/eid', '/sandbox/maintenance-windows']) expect(res.text).toContain(`href="${href}"`);
    expect(res.text).toContain('<label for="admin-key">Admin key</label>');
    expect(res.text).toContain('<tr id="hint-POLLED_TOO_FAST"><td><code>POLLED_TOO_FAST</code></td><td>bank §4.1</td>');
  });

  it('contract §14 Console: GET / from a client that names no type or only */* (curl, SDKs) answers the facts as JSON, like GET /sandboxes/{id}', async () => {
    for (const accept of ['*/*', undefined]) {
      const request = t.http.get('/');
      const res = await (accept ? request.set('Accept', accept) : request.unset('Accept')).expect(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.body).toMatchObject({ sandbox_id: 'default' });
    }
  });

  it('contract §14 Console: GET / for a JSON client answers the same facts as JSON', async () => {
    const res = await t.http.get('/').set('Accept', 'application/json').expect(200);
    expect(res.body).toEqual({
      sandbox_id: 'default',
      name: 'default',
      clock: { now: '2026-11-24T09:00:00.000Z', frozen: true },
      links: {
        docs: '/docs',
        openapi: '/openapi.json',
        eid_simulator: '/sandbox/eid',
        maintenance_windows: '/sandbox/maintenance-windows',
        requests: '/sandbox/requests',
        admin_requests: '/admin/requests',
      },
    });
    expect(res.headers.vary).toMatch(/Accept/i);
  });

  it('contract §13 Addressing: GET /sandboxes/{id} from a browser is that sandbox\'s page, without any key; for JSON it stays the keyed lifecycle route', async () => {
    const sandbox = await createSandbox(t, { name: 'console <b>bold</b>', clock: { now: '2027-01-15T08:30:00+01:00', frozen: true } });
    const prefix = `/sandboxes/${sandbox.sandbox_id}`;
    for (const path of [prefix, `${prefix}/`]) {
      const page = await t.http.get(path).set(HTML).expect(200);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      // The name is the creator's text: escaped, never markup.
      expect(page.text).toContain('<h1>Sandbox console &lt;b&gt;bold&lt;/b&gt;</h1>');
      expect(page.text).toContain('>2027-01-15T08:30:00+01:00</time>');
      expect(page.text).toContain(`href="${prefix}/sandbox/eid"`);
      expect(page.text).toContain(`href="${prefix}/sandbox/maintenance-windows"`);
      expect(page.text).toContain(`data-prefix="${prefix}"`);
      expect(page.text).not.toContain(sandbox.admin_key);
    }
    expectProblem(await t.http.get(prefix).set('Accept', 'application/json'), 401, 'UNAUTHORIZED');
    expect((await t.http.get(prefix).set({ ...operator, Accept: 'application/json' }).expect(200)).body.name).toBe('console <b>bold</b>');
  });

  it('contract §13 Addressing, §14 Console: a created sandbox\'s page links its own /docs and /openapi.json, which name its prefix as their server', async () => {
    const sandbox = await createSandbox(t, { name: 'console docs links' });
    const prefix = `/sandboxes/${sandbox.sandbox_id}`;
    const page = await t.http.get(prefix).set(HTML).expect(200);
    expect(page.text).toContain(`<a href="${prefix}/docs">API reference</a> (<a href="${prefix}/openapi.json">OpenAPI description</a>)`);
    expect(page.text).not.toMatch(/href="\/(docs|openapi\.json)"/);
    const description = await t.http.get(`${prefix}/openapi.json`).expect(200);
    expect(description.body.servers).toEqual([expect.objectContaining({ url: prefix })]);
    const docs = await t.http.get(`${prefix}/docs`).redirects(1).expect(200);
    expect(docs.headers['content-type']).toMatch(/^text\/html/);
  });

  it('contract §13: the page of an unknown sandbox is 404 NOT_FOUND, a malformed id 400', async () => {
    expectProblem(await t.http.get(`/sandboxes/${randomUUID()}`).set(HTML).set('Accept', 'text/html, application/problem+json;q=0.9'), 404, 'NOT_FOUND');
    expectProblem(await t.http.get('/sandboxes/not-an-id').set('Accept', 'text/html, application/problem+json;q=0.9'), 400, 'VALIDATION_FAILED');
  });

  it('contract §14: the console page is not recorded in the journal', async () => {
    const sandbox = await createSandbox(t, { name: 'console not recorded' });
    const requestId = `console-${randomUUID()}`;
    await t.http.get('/').set({ ...HTML, 'X-Request-Id': requestId }).expect(200);
    await t.http.get(`/sandboxes/${sandbox.sandbox_id}`).set({ ...HTML, 'X-Request-Id': requestId }).expect(200);
    await t.http.get(`/sandboxes/${sandbox.sandbox_id}/`).set({ ...HTML, 'X-Request-Id': requestId }).expect(200);
    await t.http.get(`/sandboxes/${sandbox.sandbox_id}`).set({ 'X-Request-Id': requestId }).expect(401);
    await t.app.get(JournalWriter).flush();
    expect(await t.app.get(DataSource).query('SELECT request_id FROM journal_entry WHERE request_id = $1', [requestId])).toEqual([]);
  });

  describe('GET /admin/eid-orders: the open eid orders the console lists (contract §14, §4)', () => {
    it('lists INITIATED and PENDING orders newest first with who asks and for whom; finished ones and ones the time rules closed are not listed', async () => {
      const s = sandboxView(t, await createSandbox(t, { name: 'open orders' }), BASE_TIME);
      await s.clock.freeze();
      const tpp = await Psd2Client.create(s);
      const first = await newUser(s, { eid: 'MANUAL' });
      const second = await newUser(s, { eid: 'MANUAL' });
      await tpp.pendingCode({ user: first });
      await s.clock.advance(20);
      const { pendingCode } = await tpp.pendingCode({ user: second });
      const listed = (await s.admin.get('/admin/eid-orders').expect(200)).body.orders;
      expect(listed.map((o: { personal_number: string }) => o.personal_number)).toEqual([second, first]);
      expect(listed[0]).toEqual({
        operation_id: expect.any(String),
        kind: 'authentication',
        channel: 'app',
        status: 'PENDING',
        hint_code: 'OUTSTANDING_TRANSACTION',
        personal_number: second,
        requested_by: expect.stringMatching(/^PSDSE-TEST-\d{8}$/),
        started_at: '2026-11-24T09:00:20.000Z',
      });

      // The first was never opened in the app: 30 s after its start it is START_FAILED (contract §4).
      await s.clock.advance(10);
      expect((await s.admin.get('/admin/eid-orders').expect(200)).body.orders.map((o: { personal_number: string }) => o.personal_number)).toEqual([second]);
      await tpp.cancel(pendingCode).expect(204);
      expect((await s.admin.get('/admin/eid-orders').expect(200)).body.orders).toEqual([]);
    });

    it('needs the admin key, and shows only this sandbox\'s orders (contract §13)', async () => {
      const s = sandboxView(t, await createSandbox(t, { name: 'orders elsewhere' }), BASE_TIME);
      expectProblem(await t.http.get(`/sandboxes/${(await createSandbox(t)).sandbox_id}/admin/eid-orders`), 401, 'UNAUTHORIZED');
      const tpp = await Psd2Client.create(t);
      await tpp.pendingCode({ user: await newUser(t, { eid: 'MANUAL' }) });
      expect((await s.admin.get('/admin/eid-orders').expect(200)).body.orders).toEqual([]);
    });
  });
});
