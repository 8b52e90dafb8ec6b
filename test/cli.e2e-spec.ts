import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readPsd2Certificate } from '@app/directory';
import { runCli } from '../apps/api/src/cli/program';
import type { CliIo } from '../apps/api/src/cli/cli-io';
import { sampleFixture } from './support/fixtures';
import { newPersonalNumber, withWrongCheckDigit } from './support/personal-numbers';
import { ADMIN_KEY, BASE_TIME, createTestApp, TestApp } from './support/test-app';
import { freshDatabase, TestDatabase } from './support/test-db';

function captureIo(env: Record<string, string | undefined> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = { env, out: (text) => out.push(text), err: (text) => err.push(text) };
  return { io, out: () => out.join(''), err: () => err.join('') };
}

/** Runs the command line in this process; its exit code, stdout and stderr. */
async function cli(argv: string[], env: Record<string, string | undefined> = {}) {
  const io = captureIo(env);
  const code = await runCli(argv, io.io);
  return { code, out: io.out(), err: io.err() };
}

const BASE_UTC = new Date(BASE_TIME).toISOString();

describe('npm run cli (contract §3, §6, §8)', () => {
  let workDir: string;
  beforeAll(() => {
    workDir = mkdtempSync(join(tmpdir(), 'sandbox-cli-'));
  });
  afterAll(() => rmSync(workDir, { recursive: true, force: true }));

  describe('help and usage', () => {
    it('--help lists every command with its description: seed, cert, clock, users', async () => {
      const { code, out } = await cli(['--help']);
      expect(code).toBe(0);
      expect(out).toMatch(/seed \[options\] <file>\s+Load a fixture file/);
      expect(out).toMatch(/cert \[options\]\s+Mint a PSD2 test certificate/);
      expect(out).toMatch(/clock\s+Show, set, advance or reset the sandbox clock/);
      expect(out).toMatch(/users\s+List, show, create or replace sandbox users/);
    });

    it.each(['seed', 'cert', 'clock', 'clock show', 'clock set', 'clock advance', 'clock reset', 'users', 'users list', 'users show', 'users put', 'users open-account'])(
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
