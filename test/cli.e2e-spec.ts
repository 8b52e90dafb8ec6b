import { createPrivateKey, X509Certificate } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createSecureContext } from 'node:tls';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JournalWriter } from '@app/common';
import { readPsd2Certificate } from '@app/directory';
import { runCli } from '../apps/api/src/cli/program';
import type { CliIo } from '../apps/api/src/cli/cli-io';
import { sampleFixture } from './support/fixtures';
import { newPersonalNumber, withWrongCheckDigit } from './support/personal-numbers';
import { certificate, newOrganizationId, newUser, Psd2Client } from './support/psd2';
import { sandboxView } from './support/sandboxes';
import { ADMIN_KEY, BASE_TIME, createTestApp, TestApp } from './support/test-app';
import { freshDatabase, TestDatabase } from './support/test-db';

function captureIo(env: Record<string, string | undefined> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  // The command's own signals: a real SIGTERM would reach the test runner, not the command.
  const signals = new EventEmitter();
  const io: CliIo = { env, out: (text) => out.push(text), err: (text) => err.push(text), signals };
  return { io, signals, out: () => out.join(''), err: () => err.join('') };
}

/** Runs the command line in this process; its exit code, stdout and stderr. */
async function cli(argv: string[], env: Record<string, string | undefined> = {}) {
  const io = captureIo(env);
  const code = await runCli(argv, io.io);
  return { code, out: io.out(), err: io.err() };
}

/** Starts the command line in this process without waiting for it: its output so far, and its exit code when it ends. */
function startCli(argv: string[], env: Record<string, string | undefined> = {}) {
  const io = captureIo(env);
  return { done: runCli(argv, io.io), signals: io.signals, out: io.out, err: io.err };
}

/** Waits until `condition` holds of what a running command printed (bounded: it fails after 20 s, showing the output). */
async function printed(output: () => string, condition: (text: string) => boolean, what: string): Promise<string> {
  const deadline = Date.now() + 20_000;
  while (!condition(output())) {
    if (Date.now() > deadline) throw new Error(`Not printed within 20 s: ${what}. Printed so far:\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return output();
}

/** Entries written so far: the journal buffers them up to a second (contract §14). */
const flushJournal = (t: TestApp) => t.app.get(JournalWriter).flush();

/** A TPP whose organization id the test knows, on the app or sandbox view `t`. */
async function tppOf(t: TestApp): Promise<{ client: Psd2Client; organizationId: string }> {
  const organizationId = newOrganizationId();
  return { client: new Psd2Client(t, await certificate(['PSP_AI', 'PSP_PI'], organizationId)), organizationId };
}

const BASE_UTC = new Date(BASE_TIME).toISOString();
/**
 * The time of a journal line on a clock frozen at BASE_TIME, as a pattern: the sandbox day in
 * Stockholm time, to the second (`at` is the sandbox clock at arrival: a moment before BASE_TIME).
 */
const SANDBOX_DAY_TIME = '2026-11-24T\\d{2}:\\d{2}:\\d{2}\\+01:00';

describe('npm run cli (contract §3, §6, §8)', () => {
  let workDir: string;
  beforeAll(() => {
    workDir = mkdtempSync(join(tmpdir(), 'sandbox-cli-'));
  });
  afterAll(() => rmSync(workDir, { recursive: true, force: true }));

  describe('help and usage', () => {
    it('--help lists every command with its description: seed, cert, clock, users, sandboxes, requests', async () => {
      const { code, out } = await cli(['--help']);
      expect(code).toBe(0);
      expect(out).toMatch(/requests\s+Read a sandbox's request journal/);
      expect(out).toMatch(/sandboxes\s+Create, list, show, reset or delete sandboxes/);
      expect(out).toMatch(/seed \[options\] <file>\s+Load a fixture file/);
      expect(out).toMatch(/cert \[options\]\s+Mint a PSD2 test certificate/);
      expect(out).toMatch(/clock\s+Show, set, advance or reset the sandbox clock/);
      expect(out).toMatch(/users\s+List, show, create or replace sandbox users/);
    });

    it.each(['seed', 'cert', 'clock', 'clock show', 'clock set', 'clock advance', 'clock reset', 'users', 'users list', 'users show', 'users put', 'users open-account', 'sandboxes', 'sandboxes create', 'sandboxes list', 'sandboxes show', 'sandboxes reset', 'sandboxes delete', 'requests', 'requests tail'])(
      '`%s --help` shows its options and examples',
      async (command) => {
        const { code, out } = await cli([...command.split(' '), '--help']);
        expect(code).toBe(0);
        expect(out).toMatch(/Examples?:\n {2}npm run cli -- /);
      },
    );

    it('lists the subcommands of clock and users, and --url/--admin-key on each', async () => {
      const clock = await cli(['clock', '--help']);
      for (const sub of ['show', 'set', 'advance', 'reset']) expect(clock.out).toMatch(new RegExp(`\\n {2}${sub}\\b`));
      const users = await cli(['users', '--help']);
      for (const sub of ['list', 'show', 'put\\|add', 'open-account']) expect(users.out).toMatch(new RegExp(`\\n {2}${sub}\\b`));
      const advance = await cli(['clock', 'advance', '--help']);
      expect(advance.out).toContain('--url <base-url>');
      expect(advance.out).toContain('--admin-key <key>');
      expect(advance.out).toContain('--sandbox <id>');
      const sandboxes = await cli(['sandboxes', '--help']);
      for (const sub of ['create', 'list', 'show', 'reset', 'delete']) expect(sandboxes.out).toMatch(new RegExp(`\\n {2}${sub}\\b`));
      // The lifecycle commands name their sandbox as an argument, not with --sandbox.
      expect((await cli(['sandboxes', 'reset', '--help'])).out).not.toContain('--sandbox');
    });

    it('an unknown command exits 2 naming it and suggesting the nearest command', async () => {
      const { code, err } = await cli(['clok', 'show']);
      expect(code).toBe(2);
      expect(err).toContain("unknown command 'clok'");
      expect(err).toContain('clock');
    });

    it('a missing argument or required option exits 2 naming it', async () => {
      const advance = await cli(['clock', 'advance']);
      expect(advance.code).toBe(2);
      expect(advance.err).toContain("missing required argument 'duration'");
      const put = await cli(['users', 'put', newPersonalNumber()]);
      expect(put.code).toBe(2);
      expect(put.err).toContain('--name');
    });
  });

  describe('cert', () => {
    it('prints Base64 DER with exactly the asked roles and organizationIdentifier, offline (contract §3)', async () => {
      const { code, out } = await cli(['cert', '--roles', 'PSP_PI', '--organization-id', 'PSDSE-FINA-777']);
      expect(code).toBe(0);
      expect(readPsd2Certificate(out.trim())).toMatchObject({ roles: ['PSP_PI'], organizationId: 'PSDSE-FINA-777' });
    });

    it('writes PEM to a file with --pem --out; the PEM is accepted as Base64 of PEM too (contract §3)', async () => {
      const file = join(workDir, 'tpp.pem');
      expect((await cli(['cert', '--roles', '', '--pem', '--out', file])).code).toBe(0);
      const pem = readFileSync(file, 'utf8');
      expect(pem).toMatch(/^-----BEGIN CERTIFICATE-----\n/);
      expect(readPsd2Certificate(Buffer.from(pem).toString('base64')).roles).toEqual([]);
    });

    it('refuses an unknown role with exit code 2', async () => {
      const { code, err } = await cli(['cert', '--roles', 'PSP_XX']);
      expect(code).toBe(2);
      expect(err).toContain('PSP_XX');
    });
  });

  describe('against the database of the environment (no running sandbox)', () => {
    let db: TestDatabase;
    let dataDir: string;
    beforeAll(async () => {
      db = await freshDatabase();
      dataDir = join(workDir, 'data');
    });
    afterAll(() => db.drop());

    /** The database the CLI opens: the test's server database, or an embedded one on disk. */
    const cliEnv = () => (db.onServer ? { ...db.env } : { DATA_DIR: dataDir, DATABASE_URL: '' });

    /** An app on the database the CLI wrote, to see the result as a client would; closed afterwards. */
    async function withApp<T>(work: (t: TestApp) => Promise<T>): Promise<T> {
      const t = await createTestApp({ db: db.onServer ? db : { ...db, env: cliEnv() }, keepClock: true });
      try {
        return await work(t);
      } finally {
        await t.close();
      }
    }

    it('`cert --pem-dir` issues through the database with the sandbox CA the service then serves (contract §16)', async () => {
      const dir = join(workDir, 'strict-db');
      const { code, out } = await cli(['cert', '--roles', 'PSP_AI,PSP_PI', '--pem-dir', dir], cliEnv());
      expect(code).toBe(0);
      const certificate = new X509Certificate(readFileSync(join(dir, 'cert.pem'), 'utf8'));
      expect(certificate.serialNumber).toBe(out.trim());
      await withApp(async (t) => {
        const ca = (await t.http.get('/sandbox/ca.pem').expect(200)).text;
        expect(readFileSync(join(dir, 'ca.pem'), 'utf8')).toBe(ca);
        expect(certificate.verify(new X509Certificate(ca).publicKey)).toBe(true);
        // The serial is the service's: revoking it in the default sandbox finds it.
        await t.admin.post(`/admin/certificates/${certificate.serialNumber}/revoke`).expect(204);
      });
    });

    describe('seed', () => {
      it('loads a fixture file straight into the database, and the service then serves it (contract §8)', async () => {
        const { fixture, alice } = sampleFixture();
        const file = join(workDir, 'fixture.json');
        writeFileSync(file, JSON.stringify(fixture));
        const { code, out } = await cli(['seed', file], cliEnv());
        expect(code).toBe(0);
        expect(out).toContain('Seeded 2 user(s) with 2 account(s), 2 partner(s), 1 TPP setting(s).');
        expect(out).toContain(fixture.partners[0].api_key!);
        await withApp(async (t) => {
          const res = await t.admin.get(`/admin/users/${alice}`).expect(200);
          expect(res.body.accounts).toHaveLength(2);
        });
      });

      it('reports progress of a large fixture on stderr ("users 120/500"), and only the summary on stdout', async () => {
        const users = Array.from({ length: 25 }, (_, i) => ({ personal_number: newPersonalNumber(), name: `Massa ${i}`, kyc_completed: true }));
        const file = join(workDir, 'large.json');
        writeFileSync(file, JSON.stringify({ users, partners: [{ name: 'P1' }, { name: 'P2' }], tpps: [{ organization_id: `PSDSE-FINA-${Date.now()}`, non_authenticated_token_lifetime_s: 900 }] }));
        const { code, out, err } = await cli(['seed', file], cliEnv());
        expect(code).toBe(0);
        expect(err).toMatch(/^Loading 25 user\(s\), 2 partner\(s\), 1 TPP setting\(s\) into /);
        const lines = err.split('\n').filter((line) => /^\w+ \d+\/\d+$/.test(line));
        expect(lines).toEqual(['users 3/25', 'users 6/25', 'users 9/25', 'users 12/25', 'users 15/25', 'users 18/25', 'users 21/25', 'users 24/25', 'users 25/25', 'partners 1/2', 'partners 2/2', 'tpps 1/1']);
        expect(out).not.toMatch(/\d+\/\d+/);
        expect(out).toContain('Seeded 25 user(s) with 0 account(s), 2 partner(s), 1 TPP setting(s).');
      });

      it('refuses an invalid fixture with exit code 2 naming the field, and writes nothing (contract §2, §8)', async () => {
        const { fixture, alice } = sampleFixture();
        fixture.users[0].kyc_completed = 'yes';
        const file = join(workDir, 'bad.json');
        writeFileSync(file, JSON.stringify(fixture));
        const { code, err } = await cli(['seed', file], cliEnv());
        expect(code).toBe(2);
        expect(err).toContain('users.0.kyc_completed');
        expect(err).not.toMatch(/users \d+\//);
        expect((await cli(['users', 'show', alice], cliEnv())).code).toBe(1);
      });

      it('refuses a file that is not JSON with exit code 2', async () => {
        const file = join(workDir, 'not.json');
        writeFileSync(file, '{ nope');
        expect((await cli(['seed', file], cliEnv())).code).toBe(2);
      });
    });

    describe('clock', () => {
      it('`clock set <time> --frozen` stops the sandbox clock at that time, as GET /admin/clock sees it (contract §6)', async () => {
        const set = await cli(['clock', 'set', BASE_TIME, '--frozen'], cliEnv());
        expect(set).toMatchObject({ code: 0, out: `${BASE_UTC} frozen\n` });
        await withApp(async (t) => {
          expect(await t.clock.read()).toEqual({ now: BASE_UTC, frozen: true });
        });
      });

      it('`clock advance 30m` moves the sandbox clock by 1800 s and keeps it frozen (contract §6)', async () => {
        await cli(['clock', 'set', BASE_TIME, '--frozen'], cliEnv());
        const advance = await cli(['clock', 'advance', '30m'], cliEnv());
        expect(advance.code).toBe(0);
        expect(advance.out).toBe(`${new Date(Date.parse(BASE_UTC) + 1800_000).toISOString()} frozen\n`);
        expect(advance.err).toContain('30m (1800 s)');
        await withApp(async (t) => {
          expect(await t.clock.read()).toEqual({ now: new Date(Date.parse(BASE_UTC) + 1800_000).toISOString(), frozen: true });
        });
        const show = await cli(['clock', 'show', '--json'], cliEnv());
        expect(JSON.parse(show.out)).toEqual({ now: new Date(Date.parse(BASE_UTC) + 1800_000).toISOString(), frozen: true });
      });

      it('`clock reset` returns the sandbox clock to real time, running (contract §6)', async () => {
        const reset = await cli(['clock', 'reset', '--json'], cliEnv());
        expect(reset.code).toBe(0);
        const clock = JSON.parse(reset.out);
        expect(clock.frozen).toBe(false);
        expect(Math.abs(Date.parse(clock.now) - Date.now())).toBeLessThan(60_000);
        await withApp(async (t) => {
          const res = await t.admin.get('/admin/clock').expect(200);
          expect(res.body.frozen).toBe(false);
          expect(Math.abs(Date.parse(res.body.now) - Date.now())).toBeLessThan(60_000);
        });
      });

      it.each([['soon'], ['30 minutes'], ['5m-'], ['5x']])(
        '`clock advance %s` exits 2 naming the accepted forms and leaves the clock alone (contract §6)',
        async (duration) => {
          await cli(['clock', 'set', BASE_TIME, '--frozen'], cliEnv());
          const { code, err } = await cli(['clock', 'advance', duration], cliEnv());
          expect(code).toBe(2);
          expect(err).toContain(`Cannot read the duration ${JSON.stringify(duration)}`);
          expect(err).toContain('30m');
          expect((await cli(['clock', 'show'], cliEnv())).out).toBe(`${BASE_UTC} frozen\n`);
        },
      );

      it('`clock set` of a time without offset exits 2 naming now, and leaves the clock alone (contract §2, §6)', async () => {
        const { code, err } = await cli(['clock', 'set', '2026-11-24T10:00:00'], cliEnv());
        expect(code).toBe(2);
        expect(err).toContain('now must carry a time-zone offset');
        expect((await cli(['clock', 'show'], cliEnv())).out).toBe(`${BASE_UTC} frozen\n`);
      });
    });

    describe('users', () => {
      it('`users add` creates a user as PUT /admin/users does; `users list` and `users show` show it (contract §4, §8)', async () => {
        const pn = newPersonalNumber();
        const add = await cli(['users', 'add', pn, '--name', 'Cli Användare', '--eid', 'MANUAL', '--no-kyc', '--credit-decision', 'REJECTED'], cliEnv());
        expect(add).toMatchObject({ code: 0, out: `Created ${pn} Cli Användare (MANUAL, KYC not done, credit REJECTED, 0 account(s))\n` });
        const open = await cli(['users', 'open-account', pn, '--name', 'Lönekonto', '--currency', 'SEK', '--balance', '250.50'], cliEnv());
        expect(open.code).toBe(0);
        expect(open.out).toMatch(/^Opened 9250\d{7} Lönekonto: 250.5 SEK\n$/);

        const list = await cli(['users', 'list', '--limit', '500'], cliEnv());
        expect(list.code).toBe(0);
        expect(list.out.split('\n')[0]).toMatch(/^PERSONAL NUMBER\s+NAME\s+EID BEHAVIOUR\s+KYC\s+ACCOUNTS\s+OTHER$/);
        expect(list.out).toMatch(new RegExp(`\\n${pn}\\s+Cli Användare\\s+MANUAL\\s+no\\s+1\\s+credit REJECTED\\n`));

        const show = await cli(['users', 'show', pn, '--json'], cliEnv());
        await withApp(async (t) => {
          const res = await t.admin.get(`/admin/users/${pn}`).expect(200);
          expect(JSON.parse(show.out)).toEqual(res.body);
          expect(res.body).toMatchObject({ name: 'Cli Användare', kyc_completed: false, eid_behaviour: 'MANUAL', credit_decision: 'REJECTED' });
          expect(res.body.accounts).toHaveLength(1);
        });

        const replace = await cli(['users', 'put', pn, '--name', 'Cli Användare'], cliEnv());
        expect(replace.out).toBe(`Replaced ${pn} Cli Användare (AUTO_COMPLETE, KYC done, 1 account(s))\n`);
      });

      it('`users add` with a wrong check digit exits 2 naming personal_number, and creates nothing (contract §4)', async () => {
        const bad = withWrongCheckDigit(newPersonalNumber());
        const before = (await cli(['users', 'list', '--limit', '500', '--json'], cliEnv())).out;
        const { code, err } = await cli(['users', 'add', bad, '--name', 'Fel Siffra'], cliEnv());
        expect(code).toBe(2);
        expect(err).toContain('personal_number');
        expect((await cli(['users', 'list', '--limit', '500', '--json'], cliEnv())).out).toBe(before);
      });

      it('`users put --eid SOMETIMES` exits 2 naming eid_behaviour, and creates nothing (contract §4)', async () => {
        const pn = newPersonalNumber();
        const { code, err } = await cli(['users', 'put', pn, '--name', 'X', '--eid', 'SOMETIMES'], cliEnv());
        expect(code).toBe(2);
        expect(err).toContain('eid_behaviour');
        const show = await cli(['users', 'show', pn], cliEnv());
        expect(show.code).toBe(1);
        expect(show.err).toContain('NOT_FOUND');
      });

      it('`users list --limit 1` shows one user and names the next page on stderr', async () => {
        const { code, out, err } = await cli(['users', 'list', '--limit', '1'], cliEnv());
        expect(code).toBe(0);
        expect(out.trim().split('\n')).toHaveLength(2);
        expect(err).toMatch(/More users follow: add --after \d{12}/);
      });
    });

    describe('sandboxes and --sandbox (contract §13)', () => {
      const UNKNOWN = '00000000-0000-4000-8000-000000000000';
      /** `sandboxes create … --json` on the database: the 201 body of POST /sandboxes. */
      async function createSandbox(...args: string[]): Promise<{ sandbox_id: string; admin_key: string; demo_partner_key?: string; base_url: string }> {
        const created = await cli(['sandboxes', 'create', '--json', ...args], cliEnv());
        expect(created).toMatchObject({ code: 0 });
        return JSON.parse(created.out);
      }
      const asSandbox = (t: TestApp, sandbox: { sandbox_id: string; admin_key: string }, path: string) =>
        t.http.get(`/sandboxes/${sandbox.sandbox_id}${path}`).set('Authorization', `Bearer ${sandbox.admin_key}`);

      it('`sandboxes create` prints id, base_url and both keys once; the admin key opens that sandbox\'s admin routes (contract §13 Lifecycle, Keys)', async () => {
        const { code, out, err } = await cli(['sandboxes', 'create', '--name', 'cli created'], cliEnv());
        expect(code).toBe(0);
        const [, id] = /^Created ([0-9a-f-]{36}) cli created\n/.exec(out) ?? [];
        expect(id).toBeDefined();
        expect(out).toContain(`  base url:         http://localhost:3000/sandboxes/${id}\n`);
        const adminKey = /\n {2}admin key: +(\S+)\n/.exec(out)?.[1];
        const demoKey = /\n {2}demo partner key: +(\S+)\n/.exec(out)?.[1];
        expect(adminKey).toBeDefined();
        expect(demoKey).toBeDefined();
        expect(err).toBe('The admin key and the demo partner key are shown only now: keep them.\n');
        const show = await cli(['sandboxes', 'show', id, '--json'], cliEnv());
        expect(JSON.parse(show.out)).toEqual({ sandbox_id: id, name: 'cli created', base_url: `http://localhost:3000/sandboxes/${id}`, created_at: expect.any(String), last_used_at: expect.any(String) });
        await withApp(async (t) => {
          // The demo set was seeded in it (seed_demo defaults to true), and the key is this sandbox's.
          await asSandbox(t, { sandbox_id: id, admin_key: adminKey! }, '/admin/users/191212121212').expect(200);
          await t.http.get('/admin/clock').set('Authorization', `Bearer ${adminKey}`).expect(401);
        });
      });

      it('`sandboxes create --no-seed-demo --clock-now … --frozen --fixture` creates it with that clock and fixture and no demo set (contract §13 Lifecycle)', async () => {
        const { fixture, alice } = sampleFixture();
        const file = join(workDir, 'sandbox-fixture.json');
        writeFileSync(file, JSON.stringify(fixture));
        const sandbox = await createSandbox('--name', 'ci-run', '--no-seed-demo', '--clock-now', '2030-06-01T12:00:00Z', '--frozen', '--fixture', file, '--no-downtime-calendar');
        expect(sandbox.demo_partner_key).toBeUndefined();
        expect((await cli(['clock', 'show', '--sandbox', sandbox.sandbox_id], cliEnv())).out).toBe('2030-06-01T12:00:00.000Z frozen\n');
        await withApp(async (t) => {
          expect((await asSandbox(t, sandbox, '/admin/clock').expect(200)).body).toEqual({ now: '2030-06-01T12:00:00.000Z', frozen: true });
          expect((await asSandbox(t, sandbox, `/admin/users/${alice}`).expect(200)).body.accounts).toHaveLength(2);
          await asSandbox(t, sandbox, '/admin/users/191212121212').expect(404);
          await t.admin.get(`/admin/users/${alice}`).expect(404);
        });
      });

      it('`--sandbox ID` runs clock, users and seed in that sandbox; the default sandbox and its clock are unchanged (contract §13 Isolation, Time)', async () => {
        const sandbox = await createSandbox('--name', 'cli --sandbox', '--no-seed-demo', '--clock-now', BASE_TIME, '--frozen');
        await cli(['clock', 'set', BASE_TIME, '--frozen'], cliEnv());
        const advance = await cli(['clock', 'advance', '1d', '--sandbox', sandbox.sandbox_id], cliEnv());
        expect(advance).toMatchObject({ code: 0, out: `${new Date(Date.parse(BASE_UTC) + 86_400_000).toISOString()} frozen\n` });
        expect((await cli(['clock', 'show'], cliEnv())).out).toBe(`${BASE_UTC} frozen\n`);

        const pn = newPersonalNumber();
        const put = await cli(['users', 'put', pn, '--name', 'Sandlåda Användare', '--sandbox', sandbox.sandbox_id], cliEnv());
        expect(put).toMatchObject({ code: 0, out: `Created ${pn} Sandlåda Användare (AUTO_COMPLETE, KYC done, 0 account(s))\n` });
        const { fixture, bob } = sampleFixture();
        const file = join(workDir, 'into-sandbox.json');
        writeFileSync(file, JSON.stringify(fixture));
        const seed = await cli(['seed', file, '--sandbox', sandbox.sandbox_id], cliEnv());
        expect(seed.code).toBe(0);
        expect(seed.err).toContain(`into sandbox ${sandbox.sandbox_id} in `);
        expect((await cli(['users', 'show', pn, '--sandbox', sandbox.sandbox_id], cliEnv())).code).toBe(0);
        expect((await cli(['users', 'show', pn], cliEnv())).code).toBe(1);
        await withApp(async (t) => {
          expect((await asSandbox(t, sandbox, '/admin/clock').expect(200)).body).toEqual({ now: new Date(Date.parse(BASE_UTC) + 86_400_000).toISOString(), frozen: true });
          expect(await t.clock.read()).toEqual({ now: BASE_UTC, frozen: true });
          await asSandbox(t, sandbox, `/admin/users/${pn}`).expect(200);
          await asSandbox(t, sandbox, `/admin/users/${bob}`).expect(200);
          await t.admin.get(`/admin/users/${pn}`).expect(404);
          await t.admin.get(`/admin/users/${bob}`).expect(404);
        });
      });

      it('`--sandbox` of an unknown id exits 1 with NOT_FOUND naming it; a malformed one exits 2 naming sandbox_id; nothing is changed (contract §13 Unknown sandbox)', async () => {
        await cli(['clock', 'set', BASE_TIME, '--frozen'], cliEnv());
        const unknown = await cli(['clock', 'advance', '1h', '--sandbox', UNKNOWN], cliEnv());
        expect(unknown.code).toBe(1);
        expect(unknown.err).toBe(`NOT_FOUND: No sandbox has the id ${UNKNOWN}.\n`);
        const malformed = await cli(['users', 'list', '--sandbox', 'my-sandbox'], cliEnv());
        expect(malformed.code).toBe(2);
        expect(malformed.err).toBe('--sandbox: sandbox_id must be "default" or a UUID (got "my-sandbox").\n');
        expect((await cli(['clock', 'show', '--sandbox', 'DEFAULT'], cliEnv())).out).toBe(`${BASE_UTC} frozen\n`);
      });

      it('`sandboxes list` is a table of every sandbox, the default one too, a page at a time (contract §13 Lifecycle)', async () => {
        const sandbox = await createSandbox('--name', 'listed one', '--no-seed-demo');
        const list = await cli(['sandboxes', 'list', '--limit', '500'], cliEnv());
        expect(list.code).toBe(0);
        expect(list.out.split('\n')[0]).toMatch(/^SANDBOX ID\s+NAME\s+CREATED AT\s+LAST USED AT$/);
        expect(list.out).toMatch(new RegExp(`\\ndefault\\s+default\\s+\\d{4}-`));
        expect(list.out).toMatch(new RegExp(`\\n${sandbox.sandbox_id}\\s+listed one\\s+\\d{4}-`));
        expect(list.out).not.toContain(sandbox.admin_key);
        const first = await cli(['sandboxes', 'list', '--limit', '1', '--json'], cliEnv());
        const page = JSON.parse(first.out);
        expect(page.sandboxes).toHaveLength(1);
        expect(first.err).toBe(`More sandboxes follow: add --after ${page.next_after}\n`);
        const bad = await cli(['sandboxes', 'list', '--limit', '501'], cliEnv());
        expect(bad.code).toBe(2);
        expect(bad.err).toContain('limit must be a whole number from 1 to 500');
      });

      it('`sandboxes reset` brings a sandbox back as created, keeping id and keys (contract §13 Lifecycle)', async () => {
        const sandbox = await createSandbox('--name', 'to reset', '--no-seed-demo', '--clock-now', BASE_TIME, '--frozen');
        const pn = newPersonalNumber();
        await cli(['users', 'put', pn, '--name', 'Borta Snart', '--sandbox', sandbox.sandbox_id], cliEnv());
        await cli(['clock', 'advance', '2h', '--sandbox', sandbox.sandbox_id], cliEnv());
        const reset = await cli(['sandboxes', 'reset', sandbox.sandbox_id], cliEnv());
        expect(reset.code).toBe(0);
        expect(reset.out).toMatch(new RegExp(`^Reset ${sandbox.sandbox_id} to reset\\n {2}base url: `));
        expect((await cli(['users', 'show', pn, '--sandbox', sandbox.sandbox_id], cliEnv())).code).toBe(1);
        expect((await cli(['clock', 'show', '--sandbox', sandbox.sandbox_id], cliEnv())).out).toBe(`${BASE_UTC} frozen\n`);
        await withApp(async (t) => {
          await asSandbox(t, sandbox, '/admin/clock').expect(200);
        });
      });

      it('`sandboxes delete` removes a sandbox: show and --sandbox then exit 1 NOT_FOUND; the default sandbox cannot be deleted (contract §13 Lifecycle)', async () => {
        const sandbox = await createSandbox('--name', 'to delete', '--no-seed-demo');
        expect(await cli(['sandboxes', 'delete', sandbox.sandbox_id], cliEnv())).toEqual({ code: 0, out: `Deleted sandbox ${sandbox.sandbox_id}\n`, err: '' });
        const show = await cli(['sandboxes', 'show', sandbox.sandbox_id], cliEnv());
        expect(show).toMatchObject({ code: 1, err: `NOT_FOUND: No sandbox has the id ${sandbox.sandbox_id}.\n` });
        expect((await cli(['clock', 'show', '--sandbox', sandbox.sandbox_id], cliEnv())).code).toBe(1);
        expect((await cli(['sandboxes', 'delete', sandbox.sandbox_id], cliEnv())).code).toBe(1);
        const again = await cli(['sandboxes', 'delete', 'default'], cliEnv());
        expect(again.code).toBe(1);
        expect(again.err).toContain('INVALID_STATE');
        const malformed = await cli(['sandboxes', 'show', 'nope'], cliEnv());
        expect(malformed.code).toBe(2);
        expect(malformed.err).toContain('sandbox_id must be "default" or a UUID');
      });

      it('`sandboxes create` with bad input exits 2 naming the field and creates nothing (contract §2, §13)', async () => {
        const count = async () => JSON.parse((await cli(['sandboxes', 'list', '--limit', '500', '--json'], cliEnv())).out).sandboxes.length;
        const before = await count();
        const { fixture } = sampleFixture();
        fixture.users[0].kyc_completed = 'yes';
        const file = join(workDir, 'bad-sandbox-fixture.json');
        writeFileSync(file, JSON.stringify(fixture));
        const badFixture = await cli(['sandboxes', 'create', '--name', 'bad', '--fixture', file], cliEnv());
        expect(badFixture.code).toBe(2);
        expect(badFixture.err).toContain('fixture.users.0.kyc_completed');
        const badKey = await cli(['sandboxes', 'create', '--name', 'bad', '--demo-partner-key', 'short'], cliEnv());
        expect(badKey.code).toBe(2);
        expect(badKey.err).toContain('demo_partner_key');
        const badClock = await cli(['sandboxes', 'create', '--name', 'bad', '--clock-now', '2026-11-24T10:00:00'], cliEnv());
        expect(badClock.code).toBe(2);
        expect(badClock.err).toContain('clock.now must carry a time-zone offset');
        const frozenAlone = await cli(['sandboxes', 'create', '--name', 'bad', '--frozen'], cliEnv());
        expect(frozenAlone).toMatchObject({ code: 2, err: '--frozen needs --clock-now: the time the sandbox clock stands still at.\n' });
        const noFile = await cli(['sandboxes', 'create', '--name', 'bad', '--fixture', join(workDir, 'missing.json')], cliEnv());
        expect(noFile.code).toBe(2);
        expect(noFile.err).toContain('Cannot read');
        expect(await count()).toBe(before);
      });

      // Last: it wipes the default sandbox the other tests of this database use.
      it('`sandboxes reset default` on the database wipes the default sandbox; its demo set comes at the service\'s next start, as on a fresh database (contract §13 Lifecycle, §8)', async () => {
        const pn = newPersonalNumber();
        await cli(['users', 'put', pn, '--name', 'Före Återställning'], cliEnv());
        const reset = await cli(['sandboxes', 'reset', 'default'], cliEnv());
        expect(reset.code).toBe(0);
        expect(reset.out).toMatch(/^Reset default default\n/);
        expect(reset.err).toBe("The default sandbox's demo set (SEED_DEMO) is seeded when the service next starts.\n");
        expect((await cli(['users', 'show', pn], cliEnv())).code).toBe(1);
        const t = await createTestApp({ db: db.onServer ? db : { ...db, env: cliEnv() }, keepClock: true, env: { SEED_DEMO: 'on' } });
        try {
          await t.admin.get('/admin/users/191212121212').expect(200);
          await t.admin.get(`/admin/users/${pn}`).expect(404);
        } finally {
          await t.close();
        }
      });
    });

    it('`requests tail` on the database prints what the service journaled, one line per entry with its hints (contract §14)', async () => {
      const organizationId = await withApp(async (t) => {
        await t.clock.freeze(BASE_TIME);
        const { client, organizationId } = await tppOf(t);
        const user = await newUser(t, { eid: 'AUTO_COMPLETE' });
        await client.start({ user, headers: { 'PSU-IP-Address': undefined } }).expect(400);
        await flushJournal(t);
        return organizationId;
      });
      const { code, out } = await cli(['requests', 'tail', '--caller', `tpp:${organizationId}`], cliEnv());
      expect(code).toBe(0);
      expect(out).toMatch(new RegExp(`^${SANDBOX_DAY_TIME} POST /psd2/auth/3\\.0/authenticate 400 \\d+ms tpp:${organizationId} VALIDATION_FAILED \\[MISSING_PSU_IP\\]\\n$`));
      const bad = await cli(['requests', 'tail', '--hint', 'NO_SUCH_HINT'], cliEnv());
      expect(bad.code).toBe(2);
      expect(bad.err).toContain('hint must be one of');
    });

    it('says the data folder is in use, suggesting --url, when another process holds the embedded database', async () => {
      if (db.onServer) return; // a server database has no such lock
      const lockedDir = join(workDir, 'locked');
      mkdirSync(lockedDir, { recursive: true });
      writeFileSync(join(lockedDir, 'sandbox.pid'), String(process.ppid));
      const { code, err } = await cli(['clock', 'show'], { DATA_DIR: lockedDir, DATABASE_URL: '' });
      expect(code).toBe(1);
      expect(err).toContain(`is in use by process ${process.ppid}`);
      expect(err).toContain('--url');
    });
  });

  describe('with --url (through a running sandbox)', () => {
    let t: TestApp;
    let base: string;
    beforeAll(async () => {
      t = await createTestApp();
      const server = await t.app.listen(0, '127.0.0.1');
      base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    });
    afterAll(() => t.close());

    const withKey = { ADMIN_API_KEY: ADMIN_KEY };

    it('`cert --pem-dir --url` issues a strict-mode client certificate of the sandbox CA into files: cert.pem, key.pem, ca.pem, cert.p12 (contract §16)', async () => {
      const dir = join(workDir, 'strict-tpp');
      const { code, out, err } = await cli(['cert', '--roles', 'PSP_AI', '--organization-id', 'PSDSE-FINA-888', '--not-after', '2027-01-01T00:00:00Z', '--pem-dir', dir, '--url', base], withKey);
      expect({ code, err }).toEqual({ code: 0, err: expect.stringContaining('cert.pem') });
      const ca = (await t.http.get('/sandbox/ca.pem').expect(200)).text;
      expect(readFileSync(join(dir, 'ca.pem'), 'utf8')).toBe(ca);
      const certificatePem = readFileSync(join(dir, 'cert.pem'), 'utf8');
      const certificate = new X509Certificate(certificatePem);
      expect(certificate.serialNumber).toBe(out.trim());
      expect(certificate.verify(new X509Certificate(ca).publicKey)).toBe(true);
      expect(certificate.checkPrivateKey(createPrivateKey(readFileSync(join(dir, 'key.pem'), 'utf8')))).toBe(true);
      expect(new Date(certificate.validTo).toISOString()).toBe('2027-01-01T00:00:00.000Z');
      expect(readPsd2Certificate(Buffer.from(certificatePem).toString('base64'))).toMatchObject({ roles: ['PSP_AI'], organizationId: 'PSDSE-FINA-888' });
      const password = readFileSync(join(dir, 'cert.p12.password'), 'utf8').trim();
      expect(() => createSecureContext({ pfx: readFileSync(join(dir, 'cert.p12')), passphrase: password })).not.toThrow();
    });

    it('`cert --pem-dir --url` needs the admin key, as POST /sandbox/certificates does: none is a usage error (2), a wrong one the 401 (1), writing nothing (contract §16)', async () => {
      const dir = join(workDir, 'keyless-tpp');
      const none = await cli(['cert', '--roles', 'PSP_AI', '--pem-dir', dir, '--url', base]);
      expect(none).toMatchObject({ code: 2, err: expect.stringContaining('needs the admin key: --admin-key or ADMIN_API_KEY') });
      const wrong = await cli(['cert', '--roles', 'PSP_AI', '--pem-dir', dir, '--url', base, '--admin-key', 'wrong-key-0123456789abcdef']);
      expect(wrong).toMatchObject({ code: 1, err: expect.stringContaining('POST /sandbox/certificates answered 401') });
      expect(existsSync(dir)).toBe(false);
    });

    it('`cert --pem-dir --url <a sandbox\'s base_url>` issues with that sandbox\'s own admin key (contract §16, §13 Keys)', async () => {
      const sandbox = (await t.http.post('/sandboxes').set({ Authorization: `Bearer ${ADMIN_KEY}` }).send({ name: 'cert owner', seed_demo: false }).expect(201)).body;
      const dir = join(workDir, 'sandbox-tpp');
      const { code, out } = await cli(['cert', '--roles', 'PSP_AI', '--pem-dir', dir, '--url', `${base}/sandboxes/${sandbox.sandbox_id}`, '--admin-key', sandbox.admin_key]);
      expect(code).toBe(0);
      expect(new X509Certificate(readFileSync(join(dir, 'cert.pem'), 'utf8')).serialNumber).toBe(out.trim());
    });

    it('`cert` refuses an organization id beginning with sha256: with exit code 2, offline and with --pem-dir, writing nothing (contract §16)', async () => {
      const borrowed = `sha256:${'cd'.repeat(32)}`;
      const offline = await cli(['cert', '--organization-id', borrowed]);
      expect(offline).toMatchObject({ code: 2, out: '', err: expect.stringContaining('must not begin with sha256:') });
      const dir = join(workDir, 'borrowed');
      const strict = await cli(['cert', '--organization-id', borrowed, '--pem-dir', dir, '--url', base], withKey);
      expect(strict).toMatchObject({ code: 2, err: expect.stringContaining('sha256:') });
      expect(existsSync(dir)).toBe(false);
    });

    it('`cert --pem-dir` refuses not_after before not_before with exit code 2 naming not_after, writing nothing (contract §16)', async () => {
      const dir = join(workDir, 'strict-refused');
      const { code, err } = await cli(['cert', '--not-before', '2027-01-01T00:00:00Z', '--not-after', '2026-01-01T00:00:00Z', '--pem-dir', dir, '--url', base], withKey);
      expect(code).toBe(2);
      expect(err).toContain('not_after');
      expect(existsSync(dir)).toBe(false);
    });

    it('`seed --url` posts the fixture to POST /admin/seed with the admin key, noting what it posts on stderr (contract §8)', async () => {
      const { fixture, bob } = sampleFixture();
      const file = join(workDir, 'via-url.json');
      writeFileSync(file, JSON.stringify(fixture));
      const { code, out, err } = await cli(['seed', file, '--url', base], withKey);
      expect(code).toBe(0);
      expect(err).toBe(`Posting 2 user(s), 2 partner(s), 1 TPP setting(s) to ${base}…\n`);
      expect(out).toContain('Seeded 2 user(s) with 2 account(s), 2 partner(s), 1 TPP setting(s).');
      await t.admin.get(`/admin/users/${bob}`).expect(200);
    });

    it('reports the problem when the service refuses (wrong key), with exit code 1', async () => {
      const file = join(workDir, 'via-url.json');
      const { code, err } = await cli(['seed', file, '--url', base, '--admin-key', 'wrong-key-0123456789']);
      expect(code).toBe(1);
      expect(err).toContain('401');
    });

    it('`clock advance 90s --url` moves the running sandbox\'s clock by 90 s; `clock show` reads it (contract §6)', async () => {
      await t.clock.freeze(BASE_TIME);
      const advance = await cli(['clock', 'advance', '90s', '--url', base], withKey);
      expect(advance.code).toBe(0);
      const expected = new Date(Date.parse(BASE_UTC) + 90_000).toISOString();
      expect(await t.clock.read()).toEqual({ now: expected, frozen: true });
      expect((await cli(['clock', 'show', '--url', base], withKey)).out).toBe(`${expected} frozen\n`);
    });

    it('`clock set` and `clock reset --url` set and release the running sandbox\'s clock (contract §6)', async () => {
      expect((await cli(['clock', 'set', '2026-12-24T09:00:00Z', '--url', base], withKey)).code).toBe(0);
      const set = await t.clock.read();
      expect(set.frozen).toBe(false);
      expect(Date.parse(set.now) - Date.parse('2026-12-24T09:00:00Z')).toBeLessThan(60_000);
      expect((await cli(['clock', 'reset', '--url', base], withKey)).code).toBe(0);
      const reset = await t.clock.read();
      expect(Math.abs(Date.parse(reset.now) - Date.now())).toBeLessThan(60_000);
      await t.clock.set(BASE_TIME);
    });

    it('`clock advance 1000000d --url` is refused by the sandbox with exit code 2 naming seconds (contract §6)', async () => {
      const before = await t.clock.freeze(BASE_TIME);
      const { code, err } = await cli(['clock', 'advance', '1000000d', '--url', base], withKey);
      expect(code).toBe(2);
      expect(err).toContain('seconds must be at most 100 years');
      expect(await t.clock.read()).toEqual(before);
    });

    it('`users put/list/show --url` go through the admin API (contract §8)', async () => {
      const pn = newPersonalNumber();
      const put = await cli(['users', 'put', pn, '--name', 'Url Användare', '--eid', 'FAIL:USER_CANCEL', '--busy-elsewhere', '--url', base], withKey);
      expect(put.out).toBe(`Created ${pn} Url Användare (FAIL:USER_CANCEL, KYC done, busy elsewhere, 0 account(s))\n`);
      expect((await t.admin.get(`/admin/users/${pn}`).expect(200)).body).toMatchObject({ eid_behaviour: 'FAIL:USER_CANCEL', busy_elsewhere: true, kyc_completed: true });
      const list = JSON.parse((await cli(['users', 'list', '--limit', '500', '--json', '--url', base], withKey)).out);
      expect(list.users).toContainEqual({ personal_number: pn, name: 'Url Användare', kyc_completed: true, eid_behaviour: 'FAIL:USER_CANCEL', busy_elsewhere: true, account_count: 0 });
      const show = await cli(['users', 'show', pn, '--url', base], withKey);
      expect(show.out).toContain(`${pn} Url Användare\n  eid behaviour:   FAIL:USER_CANCEL\n`);
    });

    it('`users show` of a bad personal number exits 2 with the sandbox\'s message naming personal_number (contract §4)', async () => {
      const { code, err } = await cli(['users', 'show', '12345', '--url', base], withKey);
      expect(code).toBe(2);
      expect(err).toMatch(/answered 400 VALIDATION_FAILED: personal_number/);
    });

    describe('sandboxes and --sandbox (contract §13)', () => {
      async function createSandbox(...args: string[]): Promise<{ sandbox_id: string; admin_key: string; base_url: string }> {
        const created = await cli(['sandboxes', 'create', '--json', '--url', base, ...args], withKey);
        expect(created).toMatchObject({ code: 0 });
        return JSON.parse(created.out);
      }

      it('`sandboxes create --url` posts POST /sandboxes with the operator key; base_url names the running service (contract §13 Lifecycle)', async () => {
        const sandbox = await createSandbox('--name', 'over http', '--demo-partner-key', 'cli-demo-partner-key-0001');
        expect(sandbox).toMatchObject({ name: 'over http', base_url: `${base}/sandboxes/${sandbox.sandbox_id}`, demo_partner_key: 'cli-demo-partner-key-0001' });
        await t.http.get(`/sandboxes/${sandbox.sandbox_id}/admin/users/191212121212`).set('Authorization', `Bearer ${sandbox.admin_key}`).expect(200);
        const show = await cli(['sandboxes', 'show', sandbox.sandbox_id, '--url', base, '--admin-key', sandbox.admin_key]);
        expect(show.code).toBe(0);
        expect(show.out).toMatch(new RegExp(`^${sandbox.sandbox_id} over http\\n {2}base url: +${base}/sandboxes/${sandbox.sandbox_id}\\n`));
        const list = JSON.parse((await cli(['sandboxes', 'list', '--json', '--limit', '500', '--url', base], withKey)).out);
        expect(list.sandboxes.map((s: { sandbox_id: string }) => s.sandbox_id)).toEqual(expect.arrayContaining(['default', sandbox.sandbox_id]));
      });

      it('`--sandbox ID --url` calls that sandbox\'s admin routes under its prefix, with its own admin key; the default clock is unchanged (contract §13 Addressing, Keys, Time)', async () => {
        const before = await t.clock.freeze(BASE_TIME);
        const sandbox = await createSandbox('--name', 'prefixed', '--clock-now', BASE_TIME, '--frozen');
        const own = ['--url', base, '--admin-key', sandbox.admin_key, '--sandbox', sandbox.sandbox_id];
        const advance = await cli(['clock', 'advance', '1d', ...own]);
        expect(advance).toMatchObject({ code: 0, out: `${new Date(Date.parse(BASE_UTC) + 86_400_000).toISOString()} frozen\n` });
        expect(await t.clock.read()).toEqual(before);
        const pn = newPersonalNumber();
        expect((await cli(['users', 'put', pn, '--name', 'Prefix Användare', ...own])).code).toBe(0);
        await t.http.get(`/sandboxes/${sandbox.sandbox_id}/admin/users/${pn}`).set('Authorization', `Bearer ${ADMIN_KEY}`).expect(200);
        await t.admin.get(`/admin/users/${pn}`).expect(404);
        // The operator key opens it too; the sandbox's key opens no other sandbox (401).
        expect((await cli(['clock', 'show', '--sandbox', sandbox.sandbox_id, '--url', base], withKey)).code).toBe(0);
        const other = await cli(['clock', 'show', '--url', base, '--admin-key', sandbox.admin_key]);
        expect(other.code).toBe(1);
        expect(other.err).toContain('GET /admin/clock answered 401');
      });

      it('a sandbox\'s base_url as --url names that sandbox; with another --sandbox it is a usage error (contract §13 Addressing)', async () => {
        const sandbox = await createSandbox('--name', 'by base url', '--no-seed-demo');
        const pn = newPersonalNumber();
        const put = await cli(['users', 'put', pn, '--name', 'Bas Adress', '--url', `${sandbox.base_url}/`, '--admin-key', sandbox.admin_key]);
        expect(put.code).toBe(0);
        await t.http.get(`/sandboxes/${sandbox.sandbox_id}/admin/users/${pn}`).set('Authorization', `Bearer ${ADMIN_KEY}`).expect(200);
        const both = await cli(['clock', 'show', '--url', sandbox.base_url, '--sandbox', 'default'], withKey);
        expect(both.code).toBe(2);
        expect(both.err).toContain('give one of them');
      });

      it('an unknown sandbox over --url exits 1 with the 404; a malformed one exits 2 before any call (contract §13 Unknown sandbox)', async () => {
        const unknown = await cli(['clock', 'show', '--sandbox', '00000000-0000-4000-8000-000000000000', '--url', base], withKey);
        expect(unknown.code).toBe(1);
        expect(unknown.err).toContain('GET /sandboxes/00000000-0000-4000-8000-000000000000/admin/clock answered 404 NOT_FOUND');
        const malformed = await cli(['clock', 'show', '--sandbox', 'x', '--url', 'http://127.0.0.1:9'], withKey);
        expect(malformed).toMatchObject({ code: 2, err: '--sandbox: sandbox_id must be "default" or a UUID (got "x").\n' });
      });

      it('`sandboxes reset` and `delete --url` with the sandbox\'s own admin key: reset keeps id and key, delete makes it 404 (contract §13 Lifecycle, Keys)', async () => {
        const sandbox = await createSandbox('--name', 'self-managed', '--no-seed-demo');
        const own = ['--url', base, '--admin-key', sandbox.admin_key];
        const pn = newPersonalNumber();
        await cli(['users', 'put', pn, '--name', 'Tillfällig', '--sandbox', sandbox.sandbox_id, ...own]);
        const reset = await cli(['sandboxes', 'reset', sandbox.sandbox_id, '--json', ...own]);
        expect(reset.code).toBe(0);
        expect(JSON.parse(reset.out)).toMatchObject({ sandbox_id: sandbox.sandbox_id, name: 'self-managed' });
        expect((await cli(['users', 'show', pn, '--sandbox', sandbox.sandbox_id, ...own])).code).toBe(1);
        expect(await cli(['sandboxes', 'delete', sandbox.sandbox_id, ...own])).toEqual({ code: 0, out: `Deleted sandbox ${sandbox.sandbox_id}\n`, err: '' });
        await t.http.get(`/sandboxes/${sandbox.sandbox_id}`).set('Authorization', `Bearer ${ADMIN_KEY}`).expect(404);
        const gone = await cli(['sandboxes', 'show', sandbox.sandbox_id, '--url', base], withKey);
        expect(gone.code).toBe(1);
        expect(gone.err).toContain('answered 404 NOT_FOUND');
      });
    });

    describe('requests tail (contract §14)', () => {
      /** A line of `requests tail` as a pattern: the sandbox time on BASE_TIME's day, method, path, status, any duration, then the rest. */
      const line = (method: string, path: string, status: number, rest: string) =>
        `${SANDBOX_DAY_TIME} ${method} ${path.replace(/\./g, '\\.')} ${status} \\d+ms ${rest.replace(/[[\]]/g, '\\$&')}\\n`;

      it('prints one line per entry, oldest first: sandbox time, method, path, status, duration, caller, reason code and hint codes; --caller kind:id shows that caller only', async () => {
        await t.clock.freeze(BASE_TIME);
        const alpha = await tppOf(t);
        const beta = await tppOf(t);
        const user = await newUser(t, { eid: 'AUTO_COMPLETE' });
        await alpha.client.start({ flow: 'authorize', user }).expect(200);
        await beta.client.start({ flow: 'authorize', user }).expect(200);
        await alpha.client.start({ user, headers: { 'PSU-IP-Address': undefined } }).expect(400);
        await t.http.get('/v2/accounts').expect(401);
        await flushJournal(t);

        const own = await cli(['requests', 'tail', '--caller', `tpp:${alpha.organizationId}`, '--url', base], withKey);
        expect(own).toMatchObject({ code: 0, err: '' });
        expect(own.out).toMatch(
          new RegExp(
            `^${line('POST', '/psd2/auth/3.0/authorize', 200, `tpp:${alpha.organizationId}`)}${line('POST', '/psd2/auth/3.0/authenticate', 400, `tpp:${alpha.organizationId} VALIDATION_FAILED [MISSING_PSU_IP]`)}$`,
          ),
        );
        // The kind alone: every TPP's entries, and no one else's.
        const tpps = await cli(['requests', 'tail', '--caller', 'tpp', '--limit', '500', '--url', base], withKey);
        expect(tpps.out).toContain(`tpp:${beta.organizationId}\n`);
        expect(tpps.out).toContain(`tpp:${alpha.organizationId} VALIDATION_FAILED [MISSING_PSU_IP]\n`);
        expect(tpps.out).not.toContain('GET /v2/accounts 401');
        const anonymous = await cli(['requests', 'tail', '--caller', 'anonymous', '--url', base], withKey);
        expect(anonymous.out).toMatch(new RegExp(`${line('GET', '/v2/accounts', 401, 'anonymous UNAUTHORIZED')}$`));
        expect(anonymous.out).not.toContain('tpp:');
        // --limit: the newest entries only; the API's other filters pass through.
        const newest = await cli(['requests', 'tail', '--caller', `tpp:${alpha.organizationId}`, '--limit', '1', '--url', base], withKey);
        expect(newest.out).toMatch(new RegExp(`^${line('POST', '/psd2/auth/3.0/authenticate', 400, `tpp:${alpha.organizationId} VALIDATION_FAILED [MISSING_PSU_IP]`)}$`));
        const hinted = await cli(['requests', 'tail', '--hint', 'MISSING_PSU_IP', '--status', '400', '--path-prefix', '/psd2/', '--json', '--url', base], withKey);
        const entries = hinted.out.trim().split('\n').map((text) => JSON.parse(text));
        expect(entries).toContainEqual(expect.objectContaining({ caller: { kind: 'tpp', id: alpha.organizationId }, status: 400, hints: [expect.objectContaining({ code: 'MISSING_PSU_IP', section: 'bank §4' })] }));
      });

      it('a caller the API does not know exits 2 with its message naming caller_kind; nothing is printed', async () => {
        const { code, out, err } = await cli(['requests', 'tail', '--caller', 'robot:R2', '--url', base], withKey);
        expect(code).toBe(2);
        expect(out).toBe('');
        expect(err).toContain('answered 400 VALIDATION_FAILED: caller_kind must be one of tpp, partner, end_user, anonymous');
      });

      it('--sandbox reads that sandbox\'s journal; --follow then prints each new entry once, as it arrives, and ends cleanly on SIGTERM', async () => {
        const created = await cli(['sandboxes', 'create', '--name', 'tailed', '--clock-now', BASE_TIME, '--frozen', '--json', '--url', base], withKey);
        const sandbox = JSON.parse(created.out) as { sandbox_id: string; admin_key: string };
        const view = sandboxView(t, sandbox, BASE_TIME);
        const { client, organizationId } = await tppOf(view);
        const user = await newUser(view, { eid: 'MANUAL' });
        const { pendingCode } = await client.pendingCode({ user, mode: 'QR_CODE' });
        await flushJournal(t);

        const tail = startCli(['requests', 'tail', '--follow', '--sandbox', sandbox.sandbox_id, '--url', base, '--admin-key', sandbox.admin_key]);
        try {
          const start = line('POST', '/psd2/auth/3.0/authenticate', 200, `tpp:${organizationId}`);
          await printed(tail.out, (out) => new RegExp(`^${start}$`).test(out), 'the entry already in the journal');
          // Two polls within a second: the second is refused with the hint (bank §4.1 rule 2).
          await client.status(pendingCode).expect(200);
          await client.status(pendingCode).expect(429);
          await flushJournal(t);
          const out = await printed(tail.out, (text) => text.includes('[POLLED_TOO_FAST]'), 'the polls made after it started');
          expect(out).toMatch(
            new RegExp(`^${start}${line('POST', '/psd2/auth/3.0/status', 200, `tpp:${organizationId}`)}${line('POST', '/psd2/auth/3.0/status', 429, `tpp:${organizationId} POLLING_TOO_FAST [POLLED_TOO_FAST]`)}$`),
          );
          // The default sandbox's entries are not in it.
          expect(out).not.toContain('/v2/accounts');

          expect(tail.signals.listenerCount('SIGTERM')).toBe(1);
          tail.signals.emit('SIGTERM');
          expect(await tail.done).toBe(0);
          expect(tail.err()).toBe('');
          // Nothing printed twice, and the handler is gone with the command.
          expect(tail.out()).toBe(out);
          expect(tail.signals.listenerCount('SIGTERM') + tail.signals.listenerCount('SIGINT')).toBe(0);
        } finally {
          // A failed expectation leaves no command polling behind.
          tail.signals.emit('SIGTERM');
          await tail.done;
        }
      });
    });

    it('takes the URL from SANDBOX_URL, and needs the admin key for it (exit code 2)', async () => {
      expect((await cli(['clock', 'show'], { SANDBOX_URL: base, ...withKey })).code).toBe(0);
      const { code, err } = await cli(['clock', 'show'], { SANDBOX_URL: base });
      expect(code).toBe(2);
      expect(err).toContain('ADMIN_API_KEY');
    });

    it('says when the sandbox cannot be reached, with exit code 1', async () => {
      const { code, err } = await cli(['clock', 'show', '--url', 'http://127.0.0.1:9'], withKey);
      expect(code).toBe(1);
      expect(err).toContain('Cannot reach the sandbox at http://127.0.0.1:9');
    });
  });
});
