import { existsSync, mkdirSync } from 'node:fs';
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
