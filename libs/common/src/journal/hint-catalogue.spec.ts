import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Hint, HINT_CATALOGUE, HINT_CODES, hintOf } from './hint-catalogue';
import { RequestHints } from './request-hints';
import { SandboxContext } from '../sandbox/sandbox-context';

describe('the hint catalogue (contract §14)', () => {
  it('holds every hint of the §14 table, each citing the bank\'s document or the contract', () => {
    expect([...HINT_CODES].sort()).toEqual(
      [
        'POLLED_TOO_FAST', 'POLLED_AFTER_FINAL', 'EXCHANGE_BEFORE_COMPLETE', 'TOKEN_EXPIRED', 'REFRESH_LAST_USE_TODAY', 'REFRESH_LIMIT_REACHED',
        'SIGNING_RETRY_WITHOUT_CANCEL', 'SIGNING_BLOCKED', 'START_AFTER_COLLECT_ERROR', 'KYC_REQUIRED', 'DEPRECATED_PATH',
        'SCOPE_NARROWER_THAN_CERTIFICATE', 'MISSING_PSU_IP',
      ].sort(),
    );
    for (const code of HINT_CODES) {
      expect(HINT_CATALOGUE[code].section).toMatch(/^(bank|contract) §\d+(\.\d+)?$/);
      expect(HINT_CATALOGUE[code].when.length).toBeGreaterThan(10);
    }
  });

  it('fills the message from what the rule knows', () => {
    expect(hintOf('TOKEN_EXPIRED', { expiredAt: '2026-11-24T10:05:00+01:00', secondsAgo: 12, lifetimeSeconds: 300, renewal: 'Ask for a new one' })).toEqual({
      code: 'TOKEN_EXPIRED',
      message: expect.stringContaining('expired 12 s ago') as string,
      section: 'bank §5.5',
    });
    expect(hintOf('SIGNING_RETRY_WITHOUT_CANCEL').message).toContain('the next start succeeds without cancel');
  });
});

describe('RequestHints (contract §14)', () => {
  it('collects the hints raised while a request is handled, once per code, and renders the Sandbox-Hints header', async () => {
    const list: Hint[] = [];
    await SandboxContext.run('default', async () => {
      RequestHints.raise('MISSING_PSU_IP');
      await Promise.resolve();
      RequestHints.raise('KYC_REQUIRED', { personalNumber: '199001011239', name: 'Test Testsson', sandboxPrefix: '' });
      RequestHints.raise('MISSING_PSU_IP');
    }, undefined, list);
    expect(list.map((hint) => hint.code)).toEqual(['MISSING_PSU_IP', 'KYC_REQUIRED']);
    expect(RequestHints.header(list)).toBe('MISSING_PSU_IP, KYC_REQUIRED');
    expect(RequestHints.header([])).toBeUndefined();
  });

  it('drops a hint raised outside a request (a job run)', () => {
    expect(() => RequestHints.raise('MISSING_PSU_IP')).not.toThrow();
    expect(() => SandboxContext.run('default', () => RequestHints.raise('MISSING_PSU_IP'))).not.toThrow();
  });

  it('keeps the list in a transaction\'s context (withManager) inside the request', async () => {
    const list: Hint[] = [];
    await SandboxContext.run('default', () => SandboxContext.withManager({} as never, () => Promise.resolve().then(() => RequestHints.raise('MISSING_PSU_IP'))), undefined, list);
    expect(list.map((hint) => hint.code)).toEqual(['MISSING_PSU_IP']);
  });
});

describe('the README lists the hint catalogue (contract §14: documented in the README)', () => {
  it('has one row per hint, with its section and when it is raised, in the catalogue\'s order', () => {
    const readme = readFileSync(join(process.cwd(), 'README.md'), 'utf8');
    const table = /<!-- hint-catalogue:begin -->([\s\S]*?)<!-- hint-catalogue:end -->/.exec(readme)?.[1] ?? '';
    const rows = table.split('\n').filter((line) => line.startsWith('| `'));
    expect(rows).toEqual(HINT_CODES.map((code) => `| \`${code}\` | ${HINT_CATALOGUE[code].section} | ${HINT_CATALOGUE[code].when} |`));
  });
});
