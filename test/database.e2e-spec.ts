import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { MIGRATIONS } from '../migrations';
import { newPersonalNumber } from './support/personal-numbers';
import { createTestApp, TestApp } from './support/test-app';

describe('database (issue 2: embedded by default, PostgreSQL server in production)', () => {
  describe('schema', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp();
    });
    afterAll(() => t.close());

    it('applies every migration at start, and never synchronizes', async () => {
      const rows: Array<{ name: string }> = await t.get(DataSource).query('SELECT name FROM migrations ORDER BY id');
      expect(rows.map((r) => r.name)).toEqual(MIGRATIONS.map((m) => m.name));
      expect(t.get(DataSource).options.synchronize).toBe(false);
    });

    it('can undo every migration and apply them again (each has a working down)', async () => {
      const dataSource = t.get(DataSource);
      for (let i = 0; i < MIGRATIONS.length; i++) await dataSource.undoLastMigration({ transaction: 'each' });
      const tables: Array<{ count: string }> = await dataSource.query(
        `SELECT count(*) FROM information_schema.tables WHERE table_schema = current_schema() AND table_name <> 'migrations'`,
      );
      expect(Number(tables[0].count)).toBe(0);
      await dataSource.runMigrations({ transaction: 'each' });
      await t.admin.get('/admin/clock').expect(200);
    });
  });

  describe('start-up', () => {
    it('stops with a message naming a bad setting (issue 2: config validated once at boot)', async () => {
      await expect(createTestApp({ env: { JOBS_INTERVAL_MS: 'often' } })).rejects.toThrow(/JOBS_INTERVAL_MS/);
    });
  });

  describe('embedded PostgreSQL under DATA_DIR', () => {
    let dataDir: string;
    const embedded = () => ({ DATABASE_URL: '', DATA_DIR: dataDir });
    beforeAll(() => {
      dataDir = mkdtempSync(join(tmpdir(), 'sandbox-data-'));
    });
    afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

    it('keeps data across a restart on the same DATA_DIR', async () => {
      const pn = newPersonalNumber();
      const first = await createTestApp({ env: embedded() });
      await first.admin.put(`/admin/users/${pn}`, { name: 'Bestående', kyc_completed: true }).expect(201);
      await first.close();
      const second = await createTestApp({ env: embedded(), keepClock: true });
      try {
        await second.admin.get(`/admin/users/${pn}`).expect(200);
      } finally {
        await second.close();
      }
    }, 60_000);

    it('refuses a second process on the same DATA_DIR: the embedded database is single-process', async () => {
      const first = await createTestApp({ env: embedded(), keepClock: true });
      try {
        // Same process here, but another pid in the lock file is what a second process would find.
        writeFileSync(join(dataDir, 'sandbox.pid'), String(process.ppid));
        await expect(createTestApp({ env: embedded(), keepClock: true })).rejects.toThrow(/DATA_DIR .* is in use by process/);
      } finally {
        writeFileSync(join(dataDir, 'sandbox.pid'), String(process.pid));
        await first.close();
      }
    }, 60_000);

    it('takes over the lock a killed process left behind (data survives kill -9)', async () => {
      writeFileSync(join(dataDir, 'sandbox.pid'), '999999');
      const app = await createTestApp({ env: embedded(), keepClock: true });
      await app.http.get('/health').expect(200);
      await app.close();
    }, 60_000);
  });
});
