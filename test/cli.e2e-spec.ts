import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readPsd2Certificate } from '@app/directory';
import { runCli } from '../apps/api/src/cli/program';
import type { CliIo } from '../apps/api/src/cli/cli-io';
import { sampleFixture } from './support/fixtures';
import { ADMIN_KEY, createTestApp, TestApp } from './support/test-app';
import { freshDatabase, TestDatabase } from './support/test-db';

function captureIo(env: Record<string, string | undefined> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = { env, out: (text) => out.push(text), err: (text) => err.push(text) };
  return { io, out: () => out.join(''), err: () => err.join('') };
}

describe('npm run cli (contract §3, §8)', () => {
  let workDir: string;
  beforeAll(() => {
    workDir = mkdtempSync(join(tmpdir(), 'sandbox-cli-'));
  });
  afterAll(() => rmSync(workDir, { recursive: true, force: true }));

  it('--help lists every command', async () => {
    const cli = captureIo();
    expect(await runCli(['--help'], cli.io)).toBe(0);
    expect(cli.out()).toMatch(/seed \[options\] <file>/);
    expect(cli.out()).toMatch(/cert \[options\]/);
  });

  describe('cert', () => {
    it('prints Base64 DER with exactly the asked roles and organizationIdentifier, offline (contract §3)', async () => {
      const cli = captureIo();
      expect(await runCli(['cert', '--roles', 'PSP_PI', '--organization-id', 'PSDSE-FINA-777'], cli.io)).toBe(0);
      const read = readPsd2Certificate(cli.out().trim());
      expect(read).toMatchObject({ roles: ['PSP_PI'], organizationId: 'PSDSE-FINA-777' });
    });

    it('writes PEM to a file with --pem --out; the PEM is accepted as Base64 of PEM too (contract §3)', async () => {
      const file = join(workDir, 'tpp.pem');
      const cli = captureIo();
      expect(await runCli(['cert', '--roles', '', '--pem', '--out', file], cli.io)).toBe(0);
      const pem = readFileSync(file, 'utf8');
      expect(pem).toMatch(/^-----BEGIN CERTIFICATE-----\n/);
      expect(readPsd2Certificate(Buffer.from(pem).toString('base64')).roles).toEqual([]);
    });

    it('refuses an unknown role with exit code 2', async () => {
      const cli = captureIo();
      expect(await runCli(['cert', '--roles', 'PSP_XX'], cli.io)).toBe(2);
      expect(cli.err()).toContain('PSP_XX');
    });
  });

  describe('seed', () => {
    let db: TestDatabase;
    let dataDir: string;
    beforeAll(async () => {
      db = await freshDatabase();
      dataDir = join(workDir, 'data');
    });
    afterAll(() => db.drop());

    /** The database the CLI opens: the test's server database, or an embedded one on disk. */
    const cliEnv = () => (db.onServer ? { ...db.env } : { DATA_DIR: dataDir, DATABASE_URL: '' });

    it('loads a fixture file straight into the database, and the service then serves it (contract §8)', async () => {
      const { fixture, alice } = sampleFixture();
      const file = join(workDir, 'fixture.json');
      writeFileSync(file, JSON.stringify(fixture));
      const cli = captureIo(cliEnv());
      expect(await runCli(['seed', file], cli.io)).toBe(0);
      expect(cli.out()).toContain('Seeded 2 user(s) with 2 account(s), 2 partner(s), 1 TPP setting(s).');
      expect(cli.out()).toContain(fixture.partners[0].api_key!);
      const t = await createTestApp({ db: db.onServer ? db : { ...db, env: cliEnv() }, keepClock: true });
      try {
        const res = await t.admin.get(`/admin/users/${alice}`).expect(200);
        expect(res.body.accounts).toHaveLength(2);
      } finally {
        await t.close();
      }
    }, 60_000);

    it('refuses an invalid fixture with exit code 2 naming the field, before opening the database', async () => {
      const { fixture } = sampleFixture();
      fixture.users[0].kyc_completed = 'yes';
      const file = join(workDir, 'bad.json');
      writeFileSync(file, JSON.stringify(fixture));
      const cli = captureIo(cliEnv());
      expect(await runCli(['seed', file], cli.io)).toBe(2);
      expect(cli.err()).toContain('users.0.kyc_completed');
    });

    it('refuses a file that is not JSON with exit code 2', async () => {
      const file = join(workDir, 'not.json');
      writeFileSync(file, '{ nope');
      const cli = captureIo(cliEnv());
      expect(await runCli(['seed', file], cli.io)).toBe(2);
    });
  });

  describe('seed --url (through a running sandbox)', () => {
    let t: TestApp;
    let base: string;
    beforeAll(async () => {
      t = await createTestApp();
      const server = await t.app.listen(0, '127.0.0.1');
      base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    });
    afterAll(() => t.close());

    it('posts the fixture to POST /admin/seed with the admin key (contract §8)', async () => {
      const { fixture, bob } = sampleFixture();
      const file = join(workDir, 'via-url.json');
      writeFileSync(file, JSON.stringify(fixture));
      const cli = captureIo({ ADMIN_API_KEY: ADMIN_KEY });
      expect(await runCli(['seed', file, '--url', base], cli.io)).toBe(0);
      await t.admin.get(`/admin/users/${bob}`).expect(200);
    });

    it('reports the problem when the service refuses (wrong key)', async () => {
      const file = join(workDir, 'via-url.json');
      const cli = captureIo();
      expect(await runCli(['seed', file, '--url', base, '--admin-key', 'wrong-key-0123456789'], cli.io)).toBe(1);
      expect(cli.err()).toContain('401');
    });
  });
});
