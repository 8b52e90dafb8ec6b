import { existsSync, mkdirSync } from 'node:fs';
import type { IncomingMessage, Server } from 'node:http';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';

/** Debian's chromium (apt package `chromium`), which .ci/run installs; CHROMIUM_PATH overrides it. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Screenshots of browser tests: kept as CI artifacts, ignored by git. */
export const SCREENSHOT_DIR = join(process.cwd(), 'test-artifacts', 'browser');

/**
 * Browser tests need Chromium. Without it they are skipped with the reason printed, unless
 * REQUIRE_BROWSER is set (as .ci/run does), where a missing browser fails them.
 */
export function describeInBrowser(name: string, fn: () => void): void {
  if (existsSync(CHROMIUM_PATH) || process.env.REQUIRE_BROWSER) {
    describe(name, fn);
    return;
  }
  process.stderr.write(`skipped "${name}": no Chromium at ${CHROMIUM_PATH} (apt-get install chromium, or set CHROMIUM_PATH)\n`);
  describe.skip(name, fn);
}

export function launchChromium(): Promise<Browser> {
  // --no-sandbox: CI runs as root, where Chromium's sandbox cannot start.
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: ['--no-sandbox'] });
}

/** Saves a full-page screenshot under test-artifacts/browser/<name>.png. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}

/** The icon the control page of faviconRequestsOf names, to tell its request from the page's. */
const CONTROL_ICON = '/favicon.ico?control';

/**
 * The /favicon.ico requests the server sees while a browser loads `url`. The browser is a fresh one
 * (Chromium remembers a missing icon browser-wide, so an earlier page would hide this one's request).
 * Once the page has loaded, a second tab opens a page of the same origin that names its own icon, and
 * waits for that icon's request: the first page's own, if any, comes the same way and earlier.
 */
export async function faviconRequestsOf(server: Server, url: string): Promise<string[]> {
  const seen: string[] = [];
  let controlAsked!: () => void;
  const controlIcon = new Promise<void>((resolve) => (controlAsked = resolve));
  // Before the app's own listener, which may rewrite req.url under a sandbox prefix.
  const record = (req: IncomingMessage) => {
    if (req.url === CONTROL_ICON) controlAsked();
    else if (req.url?.startsWith('/favicon.ico')) seen.push(req.url);
  };
  server.prependListener('request', record);
  const browser = await launchChromium();
  try {
    const context = await browser.newContext();
    await (await context.newPage()).goto(url);
    // The first page stays open: leaving it could cancel its icon's request.
    const control = await context.newPage();
    const controlUrl = new URL('/favicon-control-page', url).href;
    await control.route(controlUrl, (route) =>
      route.fulfill({ contentType: 'text/html', body: `<!doctype html><link rel="icon" href="${CONTROL_ICON}"><title>control</title><p>control` }),
    );
    await control.goto(controlUrl);
    await controlIcon;
    return seen;
  } finally {
    server.off('request', record);
    await browser.close();
  }
}
