import type { Server } from 'node:http';
import type { Browser, Page, Request, Response } from 'playwright-core';
import { JournalWriter } from '@app/common';
import { describeInBrowser, faviconRequestsOf, launchChromium, screenshot } from './support/browser';
import { newUser, Psd2Client } from './support/psd2';
import { createSandbox, type CreatedSandbox, sandboxView } from './support/sandboxes';
import { ADMIN_KEY, BASE_TIME, createTestApp, type TestApp } from './support/test-app';

// Run in the page (strings: the test files are type-checked without the DOM library).
const STORED_ANYWHERE = "[localStorage.length, sessionStorage.length, document.cookie, document.getElementById('admin-key').value]";
const UNLABELLED_CONTROLS = `[
  ...Array.from(document.querySelectorAll('input, select')).filter((el) => el.labels.length === 0),
  ...Array.from(document.querySelectorAll('button')).filter((el) => !el.textContent.trim()),
].map((el) => el.outerHTML)`;

const JOURNAL_IDS = "Array.from(document.querySelectorAll('#journal > li')).map((li) => li.dataset.requestId)";
const FOCUSED = "(() => { const el = document.activeElement; return { id: el.id, text: el.textContent, operationId: el.dataset.operationId ?? null, row: el.closest('tr')?.textContent ?? null }; })()";

/** Journal entries are written within a second and the page reads every 2 s: a few seconds at most. */
const LIVE = { timeout: 15_000 };

/** A poll's (or a filter's) read of the journal, and of the open eid orders. */
const isJournalRead = (r: Request | Response) => new URL(r.url()).pathname.endsWith('/admin/requests');
const isOrdersRead = (r: Request | Response) => new URL(r.url()).pathname.endsWith('/admin/eid-orders');

/**
 * The console in a real browser (issue 16, contract §14): a developer opens their sandbox's page,
 * types its admin key, sees the request their client just sent with the rule it broke, opens it,
 * and moves the sandbox clock from the page.
 */
describeInBrowser('console page in Chromium (issue 16, contract §14)', () => {
  let t: TestApp;
  let baseUrl: string;
  let browser: Browser;
  let page: Page;
  let sandbox: CreatedSandbox;
  let s: TestApp;
  let tpp: Psd2Client;

  beforeAll(async () => {
    t = await createTestApp({ frozenAt: BASE_TIME });
    baseUrl = await t.listen();
    sandbox = await createSandbox(t, { name: 'console test' });
    s = sandboxView(t, sandbox, BASE_TIME);
    tpp = await Psd2Client.create(s);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await t.close();
  });
  beforeEach(async () => {
    await s.clock.freeze();
    page = await browser.newPage();
  });
  afterEach(async () => {
    await screenshot(page, expect.getState().currentTestName!.replace(/[^a-z0-9]+/gi, '-').slice(0, 100));
    await page.close();
  });

  const unlock = async (key: string) => {
    // Keyboard: the key field, then Enter submits the form.
    await page.getByLabel('Admin key', { exact: true }).fill(key);
    await page.getByLabel('Admin key', { exact: true }).press('Enter');
  };
  const journalEntry = (hasText: string) => page.locator('#journal > li', { hasText });

  /** `count` journaled requests in this order (GET /sandbox/maintenance-windows), written to the journal; their ids. */
  const sendRequests = async (view: TestApp, label: string, count: number): Promise<string[]> => {
    const ids = Array.from({ length: count }, (_, i) => `${label}-${String(i + 1).padStart(3, '0')}`);
    for (const id of ids) await view.http.get('/sandbox/maintenance-windows').set('X-Request-Id', id).expect(200);
    await t.app.get(JournalWriter).flush();
    return ids;
  };
  const freshSandbox = async (name: string) => {
    const created = await createSandbox(t, { name });
    return { created, view: sandboxView(t, created, BASE_TIME) };
  };

  it('shows the sandbox and its clock to anyone; a wrong key opens nothing; the right key stays in page memory only', async () => {
    await page.goto(`${baseUrl}/sandboxes/${sandbox.sandbox_id}`);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Sandbox console test');
    await expect(page.locator('#clock-now').textContent()).resolves.toBe('2026-11-24T10:00:00+01:00');
    await expect(page.getByRole('link', { name: 'eid simulator' }).getAttribute('href')).resolves.toBe(`/sandboxes/${sandbox.sandbox_id}/sandbox/eid`);
    await expect(page.getByRole('link', { name: 'Maintenance windows' }).getAttribute('href')).resolves.toBe(`/sandboxes/${sandbox.sandbox_id}/sandbox/maintenance-windows`);
    await expect(page.getByRole('link', { name: 'API reference' }).getAttribute('href')).resolves.toBe(`/sandboxes/${sandbox.sandbox_id}/docs`);
    await expect(page.locator('#admin').isHidden()).resolves.toBe(true);

    await unlock('not-the-key');
    await page.locator('#message', { hasText: 'That key does not open this sandbox' }).waitFor();
    await expect(page.locator('#admin').isHidden()).resolves.toBe(true);

    await unlock(sandbox.admin_key);
    await page.locator('#admin').waitFor({ state: 'visible' });
    await expect(page.evaluate(STORED_ANYWHERE)).resolves.toEqual([0, 0, '', '']);
    expect(page.url()).toBe(`${baseUrl}/sandboxes/${sandbox.sandbox_id}`);
    expect(await page.content()).not.toContain(sandbox.admin_key);

    await page.getByRole('button', { name: 'Forget the key' }).click();
    await expect(page.locator('#admin').isHidden()).resolves.toBe(true);
  });

  it('a request that broke a rule appears live with its hint; expanded by keyboard it shows the redacted request, the answer and the rule\'s section; the filters narrow it', async () => {
    const user = await newUser(s, { name: 'Konsol Konsolsson', eid: 'MANUAL' });
    await page.goto(`${baseUrl}/sandboxes/${sandbox.sandbox_id}`);
    await unlock(sandbox.admin_key);
    await page.locator('#users tbody tr', { hasText: 'Konsol Konsolsson' }).waitFor(LIVE);

    // The client forgets PSU-IP-Address (bank §4): 400, and the hint MISSING_PSU_IP.
    const refused = await tpp.start({ user, headers: { 'PSU-IP-Address': undefined } }).expect(400);
    expect(refused.headers['sandbox-hints']).toBe('MISSING_PSU_IP');
    const requestId = refused.headers['x-request-id'];
    const entry = journalEntry(requestId);
    await page.locator('#journal > li', { hasText: 'MISSING_PSU_IP' }).waitFor(LIVE);
    await expect(entry.locator('summary').textContent()).resolves.toMatch(/^10:00:00 POST \/psd2\/auth\/3\.0\/authenticate 400 tpp PSDSE-TEST-\d{8} · \d+ msMISSING_PSU_IP$/);

    // Keyboard: focus the entry's summary, Enter opens it.
    await entry.locator('summary').focus();
    await page.keyboard.press('Enter');
    await expect(entry.locator('details').getAttribute('open')).resolves.toBe('');
    await expect(entry.locator('.hints li').textContent()).resolves.toBe(
      'MISSING_PSU_IP: Refused for lacking the PSU-IP-Address header, which this call needs (bank §4, §4.2, §5.9). (bank §4)',
    );
    const requestShown = await entry.locator('pre').first().textContent();
    expect(requestShown).toContain('"x-psd2-client-test-cert"');
    expect(requestShown).toContain('"organization_id"');
    expect(requestShown).not.toContain(tpp.cert.slice(0, 40));
    await expect(entry.locator('pre').nth(1).textContent()).resolves.toContain('"VALIDATION_FAILED"');

    // The section links to the rule in the page's hint catalogue.
    await entry.getByRole('link', { name: 'bank §4' }).click();
    expect(new URL(page.url()).hash).toBe('#hint-MISSING_PSU_IP');
    await expect(page.locator('#hint-MISSING_PSU_IP').textContent()).resolves.toContain('a call that needs PSU-IP-Address refused for lacking it');

    // A request that follows the rules: no hint. Then filter by hint.
    const clean = await tpp.start({ user }).expect(200);
    await journalEntry(clean.headers['x-request-id']).waitFor(LIVE);
    await expect(journalEntry(clean.headers['x-request-id']).locator('.hint-code').count()).resolves.toBe(0);
    await page.getByLabel('Hint', { exact: true }).selectOption('MISSING_PSU_IP');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.locator('#message', { hasText: 'Journal filtered.' }).waitFor();
    await expect(page.locator('#journal > li').count()).resolves.toBe(1);
    await expect(journalEntry(requestId).count()).resolves.toBe(1);
  });

  it('moves the sandbox clock from the page; the open eid order it closes leaves the list', async () => {
    const user = await newUser(s, { name: 'Tid Tidsson', eid: 'MANUAL' });
    await tpp.pendingCode({ user });
    await page.goto(`${baseUrl}/sandboxes/${sandbox.sandbox_id}`);
    await unlock(sandbox.admin_key);
    const order = page.locator('#eid-orders tbody tr', { hasText: user });
    await order.waitFor(LIVE);
    await expect(order.getByRole('link', { name: 'Authentication (app)' }).getAttribute('href')).resolves.toMatch(
      new RegExp(`^/sandboxes/${sandbox.sandbox_id}/sandbox/eid\\?operation_id=[0-9a-f-]{36}$`),
    );

    await page.getByRole('button', { name: '+1 hour' }).click();
    await page.locator('#clock-now', { hasText: '2026-11-24T11:00:00+01:00' }).waitFor();
    await expect(s.clock.read()).resolves.toEqual({ now: '2026-11-24T10:00:00.000Z', frozen: true });
    // Never opened in the app, the order failed 30 s after its start (contract §4).
    await order.waitFor({ state: 'detached' });

    await page.getByLabel('Seconds', { exact: true }).fill('90');
    await page.getByLabel('Seconds', { exact: true }).press('Enter');
    await page.locator('#clock-now', { hasText: '2026-11-24T11:01:30+01:00' }).waitFor();

    await page.getByRole('button', { name: 'Back to real time' }).click();
    await page.locator('#clock-state', { hasText: 'running' }).waitFor();
    expect((await s.clock.read()).frozen).toBe(false);
  });

  it('the default sandbox\'s page is GET /, opened with the operator key; every control is labelled', async () => {
    await page.goto(`${baseUrl}/`);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Default sandbox');
    await unlock(ADMIN_KEY);
    await page.locator('#admin').waitFor({ state: 'visible' });
    await expect(page.evaluate(UNLABELLED_CONTROLS)).resolves.toEqual([]);
  });

  it('contract §14 console journal: more than 50 requests between two polls are all shown, newest first, none skipped', async () => {
    const { created, view } = await freshSandbox('burst');
    const before = await sendRequests(view, 'before', 3);
    await page.goto(`${baseUrl}/sandboxes/${created.sandbox_id}`);
    await unlock(created.admin_key);
    await journalEntry(before[0]).waitFor(LIVE);

    // The next poll's read of the journal waits while 120 requests arrive: its first page holds 50 of them.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let held!: () => void;
    const holding = new Promise<void>((resolve) => (held = resolve));
    await page.route((url) => url.pathname.endsWith('/admin/requests'), async (route) => {
      held();
      await gate;
      await route.continue();
    });
    await holding;
    const burst = await sendRequests(view, 'burst', 120);
    release();

    await journalEntry(burst[119]).waitFor(LIVE);
    await expect(page.evaluate(JOURNAL_IDS)).resolves.toEqual([...before, ...burst].reverse());
  });

  it('contract §14 console journal: "Show older entries" reads on below the oldest entry shown, by keyboard, until the journal ends', async () => {
    const { created, view } = await freshSandbox('older');
    const sent = await sendRequests(view, 'older', 120);
    await page.goto(`${baseUrl}/sandboxes/${created.sandbox_id}`);
    await unlock(created.admin_key);
    await journalEntry(sent[119]).waitFor(LIVE);
    await expect(page.evaluate(JOURNAL_IDS)).resolves.toEqual(sent.slice(70).reverse());

    // Keyboard: the button at the end of the list, Enter; it keeps the focus while there is more.
    const older = page.getByRole('button', { name: 'Show older entries' });
    await older.focus();
    await page.keyboard.press('Enter');
    await journalEntry(sent[20]).waitFor();
    await expect(page.evaluate(JOURNAL_IDS)).resolves.toEqual(sent.slice(20).reverse());
    await expect(page.evaluate(FOCUSED)).resolves.toMatchObject({ id: 'journal-older' });

    // The last page: the button goes, the focus moves to the oldest entry, and new entries still arrive on top.
    await page.keyboard.press('Enter');
    await page.locator('#message', { hasText: 'Showing 20 older entries, down to the oldest.' }).waitFor();
    await expect(page.evaluate(JOURNAL_IDS)).resolves.toEqual([...sent].reverse());
    await expect(older.isHidden()).resolves.toBe(true);
    await expect(page.evaluate(FOCUSED)).resolves.toMatchObject({ text: expect.stringContaining('GET /sandbox/maintenance-windows') });
    await expect(page.evaluate("document.activeElement.closest('li').dataset.requestId")).resolves.toBe(sent[0]);
    const [latest] = await sendRequests(view, 'latest', 1);
    await journalEntry(latest).waitFor(LIVE);
    await expect(page.evaluate(JOURNAL_IDS)).resolves.toEqual([latest, ...[...sent].reverse()]);
  });

  it('contract §14 console journal: a filter takes effect when submitted, not while typed: a half-typed status goes to no poll', async () => {
    await page.goto(`${baseUrl}/sandboxes/${sandbox.sandbox_id}`);
    await unlock(sandbox.admin_key);
    await page.waitForResponse(isJournalRead);

    await page.getByLabel('Status', { exact: true }).fill('40');
    for (let poll = 0; poll < 2; poll++) {
      const read = await page.waitForResponse(isJournalRead);
      expect(new URL(read.url()).searchParams.get('status')).toBeNull();
      expect(read.status()).toBe(200);
    }
    await expect(page.locator('#message').getAttribute('class')).resolves.toBe('ok');

    // Submitted (Enter in the field), it is what every poll reads with, whatever is typed next.
    await page.getByLabel('Status', { exact: true }).fill('400');
    await page.getByLabel('Status', { exact: true }).press('Enter');
    await page.locator('#message', { hasText: 'Journal filtered.' }).waitFor();
    await page.getByLabel('Status', { exact: true }).fill('2');
    for (let poll = 0; poll < 2; poll++) {
      const read = await page.waitForResponse(isJournalRead);
      expect(new URL(read.url()).searchParams.get('status')).toBe('400');
    }
    await expect(page.locator('#message').textContent()).resolves.toBe('Journal filtered.');
  });

  it('contract §14 console: a skip link leads past the journal to the open eid orders; a focused order link keeps the focus across polls and when the list changes', async () => {
    const user = await newUser(s, { name: 'Fokus Fokusson', eid: 'MANUAL' });
    await tpp.pendingCode({ user });
    await page.goto(`${baseUrl}/sandboxes/${sandbox.sandbox_id}`);
    await unlock(sandbox.admin_key);
    await page.locator('#eid-orders tbody tr', { hasText: user }).waitFor(LIVE);

    // Keyboard: the skip link, Enter, then Tab reaches the newest order's link, past every journal entry.
    await page.getByRole('link', { name: 'Skip the journal: go to the open eid orders' }).focus();
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    const focused = await page.evaluate<{ operationId: string | null; row: string | null }>(FOCUSED);
    expect(focused.row).toContain(user);
    expect(focused.operationId).toMatch(/^[0-9a-f-]{36}$/);

    // Two polls later the focus is where it was.
    await page.waitForResponse(isOrdersRead);
    await page.waitForResponse(isOrdersRead);
    await expect(page.evaluate(FOCUSED)).resolves.toMatchObject({ operationId: focused.operationId });

    // Another order: the table changes, and the focus stays on the same order's link.
    const other = await newUser(s, { name: 'Andra Andrasson', eid: 'MANUAL' });
    await tpp.pendingCode({ user: other });
    await page.locator('#eid-orders tbody tr', { hasText: other }).waitFor(LIVE);
    await expect(page.evaluate(FOCUSED)).resolves.toMatchObject({ operationId: focused.operationId });
  });

  it('contract §14 console: the page asks for no /favicon.ico (it would 404 into the journal)', async () => {
    const server = t.app.getHttpServer() as Server;
    await expect(faviconRequestsOf(server, `${baseUrl}/sandboxes/${sandbox.sandbox_id}`)).resolves.toEqual([]);
    await expect(faviconRequestsOf(server, `${baseUrl}/`)).resolves.toEqual([]);
  });
});
