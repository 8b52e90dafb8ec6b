import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { Browser, Page } from 'playwright-core';
import { ParticipantService } from '@app/signing';
import { describeInBrowser, faviconRequestsOf, launchChromium, screenshot } from './support/browser';
import { newPartner } from './support/fixtures';
import { newUser, psd2App, Psd2Client } from './support/psd2';
import { RecordingProcessModule } from './support/signing-process';
import type { TestApp } from './support/test-app';

// Run in the page (strings: the test files are type-checked without the DOM library).
const QR_IMAGE_LOADED = "document.getElementById('qr-image').naturalWidth > 0";
const UNLABELLED_CONTROLS = `[
  ...Array.from(document.querySelectorAll('input, select')).filter((el) => el.labels.length === 0),
  ...Array.from(document.querySelectorAll('button')).filter((el) => !el.textContent.trim()),
].map((el) => el.outerHTML)`;
const FOCUSED = "document.activeElement.id || document.activeElement.textContent";
/** WCAG 2's contrast ratio of the Approve button's text on its background. */
const APPROVE_CONTRAST = `(() => {
  const style = getComputedStyle(document.querySelector('button.primary'));
  const luminance = (color) => {
    const [r, g, b] = color.match(/[\\d.]+/g).slice(0, 3).map((c) => Number(c) / 255)
      .map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [light, dark] = [luminance(style.color), luminance(style.backgroundColor)].sort((a, b) => b - a);
  return (light + 0.05) / (dark + 0.05);
})()`;

/**
 * The eid simulator page in a real browser (issue 9, contract §4): a tester opens the order a TPP or
 * partner started, answers it on the page, and the TPP's or partner's next poll sees the answer.
 */
describeInBrowser('eid simulator page in Chromium (issue 9, contract §4)', () => {
  let t: TestApp;
  let baseUrl: string;
  let browser: Browser;
  let page: Page;
  let tpp: Psd2Client;

  beforeAll(async () => {
    ({ t, tpp } = await psd2App({ imports: [RecordingProcessModule] }));
    baseUrl = await t.listen();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await t.close();
  });
  beforeEach(async () => {
    await t.clock.freeze();
    page = await browser.newPage();
  });
  afterEach(async () => {
    await screenshot(page, expect.getState().currentTestName!.replace(/[^a-z0-9]+/gi, '-').slice(0, 100));
    await page.close();
  });

  const orderStatus = () => page.locator('#order-status');

  const namedUser = (name: string, eid = 'MANUAL', accounts = 0) => newUser(t, { name, eid, accounts });

  it('approves an authentication of a MANUAL user opened by ?autostarttoken=, as the user picked on the page; the TPP\'s status poll sees COMPLETE', async () => {
    const subject = await namedUser('Tolvan Tolvansson');
    const chosen = await namedUser('Alva Andersson', 'MANUAL', 1);
    const { pendingCode, autoStartToken } = await tpp.pendingCode({ user: subject });

    // What eid://autostarttoken=<token>&redirect=null maps to in the sandbox.
    await page.goto(`${baseUrl}/sandbox/eid?autostarttoken=${autoStartToken}&redirect=null`);
    await page.waitForURL(/\/sandbox\/eid\?operation_id=[0-9a-f-]{36}$/);
    await expect(page.getByRole('heading', { name: /^Authentication asked by PSDSE-TEST-\d{8}$/ }).count()).resolves.toBe(1);
    await expect(page.locator('#order-person').textContent()).resolves.toBe(`Tolvan Tolvansson (${subject})`);
    await expect(page.locator('#order-started').textContent()).resolves.toBe('2026-11-24T10:00:00+01:00');
    await expect(orderStatus().textContent()).resolves.toBe('PENDING · USER_SIGN');
    expect((await tpp.status(pendingCode).expect(200)).body).toEqual({ eid_auth_status: 'PENDING', hint_code: 'USER_SIGN' });

    await page.getByLabel('Authenticate as').selectOption(chosen);
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.locator('#order-status', { hasText: 'COMPLETE' }).waitFor();
    await expect(page.locator('#order-actions').isHidden()).resolves.toBe(true);

    expect((await tpp.status(pendingCode).expect(200)).body).toEqual({ eid_auth_status: 'COMPLETE' });
    const token = (await tpp.exchange(pendingCode).expect(200)).body.access_token;
    const accounts = await t.http.get('/v2/accounts').set(tpp.headers({ Authorization: `Bearer ${token}` })).expect(200);
    expect(accounts.body.accounts.map((a: { name: string }) => a.name)).toEqual(['Konto 0']);
  });

  it('opens a pasted QR string, shows the live QR code, and fails the order with USER_CANCEL by keyboard; the TPP\'s status poll sees FAILED USER_CANCEL', async () => {
    const subject = await namedUser('Tolvan Tolvansson');
    const { pendingCode } = await tpp.pendingCode({ user: subject, mode: 'QR_CODE' });
    const { qr_code } = (await tpp.status(pendingCode).expect(200)).body;

    await page.goto(`${baseUrl}/sandbox/eid`);
    await page.getByLabel('Autostart token or QR string').fill(qr_code);
    await page.keyboard.press('Enter');
    await page.waitForURL(/operation_id=/);

    // The QR image is the order's current QR string, fetched again every second.
    const qrImage = page.getByRole('img', { name: /Live QR code/ });
    await page.waitForFunction(QR_IMAGE_LOADED);
    const shown = await page.locator('#qr-string').textContent();
    expect(shown).toMatch(/^eid\.[0-9a-f-]{36}\.0\.[0-9a-f]{64}$/);
    await t.clock.advance(2);
    await page.locator('#qr-string', { hasText: /^eid\.[0-9a-f-]{36}\.2\.[0-9a-f]{64}$/ }).waitFor();
    await expect(qrImage.getAttribute('src')).resolves.toMatch(/\/qr\.svg\?t=2$/);
    await page.waitForFunction(QR_IMAGE_LOADED);

    // Keyboard only: choose the hint in the select, Tab to the Fail button, press Enter.
    await page.getByLabel('Failure hint').focus();
    await page.getByLabel('Failure hint').selectOption('USER_CANCEL');
    await page.keyboard.press('Tab');
    await expect(page.evaluate('document.activeElement.textContent')).resolves.toBe('Fail');
    await page.keyboard.press('Enter');
    await page.locator('#order-status', { hasText: 'FAILED · USER_CANCEL' }).waitFor();
    await expect(page.locator('#qr-figure').isHidden()).resolves.toBe(true);

    expect((await tpp.status(pendingCode).expect(200)).body).toEqual({ eid_auth_status: 'FAILED', hint_code: 'USER_CANCEL' });
  });

  it('finds a phone signing by personal number, picks it up, confirms the call and signs; the partner\'s collect sees COMPLETE', async () => {
    const user = await namedUser('Tolvan Tolvansson');
    const partner = await newPartner(t, { name: 'Bolånepartner AB' });
    const [participant] = await t.get(ParticipantService).register({ kind: 'test_process', id: randomUUID(), partnerId: partner.partner_id }, [user]);
    const signing = (path: string) =>
      t.http.post(`/signing/1.0/${path}`).set('Authorization', `Bearer ${partner.api_key}`).send({ participant_id: participant.id, ...(path === 'start/phone' ? { call_initiator: 'RP' } : {}) });
    await signing('start/phone').expect(204);

    await page.goto(`${baseUrl}/sandbox/eid`);
    await page.getByLabel('Personal number').fill(user);
    await page.getByRole('button', { name: 'Show phone orders' }).click();
    await page.getByRole('link', { name: /^Signing started 2026-11-24T10:00:00\+01:00$/ }).click();
    await expect(page.getByRole('heading', { name: 'Signing asked by Bolånepartner AB' }).count()).resolves.toBe(1);
    await expect(page.locator('#order-kind').textContent()).resolves.toBe('Signing by phone call (the partner called the user)');
    await expect(orderStatus().textContent()).resolves.toBe('INITIATED');
    expect((await signing('collect').expect(200)).body).toMatchObject({ status: 'INITIATED' });

    await page.getByRole('button', { name: 'Pick up the order' }).click();
    await page.locator('#order-status', { hasText: 'PENDING · USER_CALL_CONFIRM' }).waitFor();
    expect((await signing('collect').expect(200)).body).toMatchObject({ status: 'PENDING', hint_code: 'USER_CALL_CONFIRM' });
    await page.getByRole('button', { name: 'Confirm the call' }).click();
    await page.locator('#order-status', { hasText: 'PENDING · USER_SIGN' }).waitFor();
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.locator('#order-status', { hasText: 'COMPLETE' }).waitFor();

    expect((await signing('collect').expect(200)).body).toMatchObject({ status: 'COMPLETE' });
  });

  it('labels every control and names every button (issue 9: usable by keyboard and screen reader)', async () => {
    const subject = await namedUser('Tolvan Tolvansson');
    const { autoStartToken } = await tpp.pendingCode({ user: subject });
    await page.goto(`${baseUrl}/sandbox/eid?autostarttoken=${autoStartToken}`);
    await page.waitForURL(/operation_id=/);
    const unlabelled = await page.evaluate(UNLABELLED_CONTROLS);
    expect(unlabelled).toEqual([]);
    expect(await page.locator('input, select, button').count()).toBeGreaterThan(8);
  });

  it('shows what went wrong on the page: an unknown token gives the problem, and nothing changes', async () => {
    await page.goto(`${baseUrl}/sandbox/eid?autostarttoken=${randomUUID()}`);
    await page.locator('#message', { hasText: 'Could not open the order: NOT_FOUND' }).waitFor();
    expect(page.url()).toContain('autostarttoken=');
  });

  it('contract §4 simulator page: after an action the focus is back on its button (Set hint), or on the result message once the order is answered (Approve), not on the page', async () => {
    const subject = await namedUser('Tolvan Tolvansson');
    const { autoStartToken } = await tpp.pendingCode({ user: subject });
    await page.goto(`${baseUrl}/sandbox/eid?autostarttoken=${autoStartToken}`);
    await page.waitForURL(/operation_id=/);

    // Keyboard: the hint, Tab to Set hint, Enter; the button is disabled while its request runs.
    await page.getByLabel('PENDING hint').focus();
    await page.getByLabel('PENDING hint').selectOption('OUTSTANDING_TRANSACTION');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.locator('#message', { hasText: 'Set hint: done.' }).waitFor();
    await page.waitForFunction(`(${FOCUSED}) === 'Set hint'`, undefined, { timeout: 5_000 });
    await expect(orderStatus().textContent()).resolves.toBe('PENDING · OUTSTANDING_TRANSACTION');

    await page.getByRole('button', { name: 'Approve' }).focus();
    await page.keyboard.press('Enter');
    await page.locator('#order-status', { hasText: 'COMPLETE' }).waitFor();
    await page.waitForFunction(`(${FOCUSED}) === 'message'`, undefined, { timeout: 5_000 });
    await expect(page.locator('#message').textContent()).resolves.toBe('Approve: done.');
  });

  it('contract §4 simulator page: the Approve button\'s white text on its green has a contrast of at least 4.5:1 (WCAG AA)', async () => {
    const subject = await namedUser('Tolvan Tolvansson');
    const { autoStartToken } = await tpp.pendingCode({ user: subject });
    await page.goto(`${baseUrl}/sandbox/eid?autostarttoken=${autoStartToken}`);
    await page.waitForURL(/operation_id=/);
    expect(await page.evaluate(APPROVE_CONTRAST)).toBeGreaterThanOrEqual(4.5);
  });

  it('contract §4 simulator page: the page asks for no /favicon.ico (it would 404 into the journal)', async () => {
    await expect(faviconRequestsOf(t.app.getHttpServer() as Server, `${baseUrl}/sandbox/eid`)).resolves.toEqual([]);
  });
});
