import type { Pool } from 'pg';
import { DataSource, QueryFailedError } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { DEFAULT_SANDBOX_ID, SandboxContext, SandboxDb } from '@app/common';
import { createTestApp, TestApp } from './support/test-app';

// Issue 19: SandboxDb runs its statements as prepared statements, planned once per connection, on
// a PostgreSQL server and on the embedded database alike, with TypeORM's answers and errors.

const COUNT_USERS = 'SELECT count(*)::int AS users FROM sandbox_user WHERE sandbox_id = $1';
const DIVIDE_BY_ZERO = 'SELECT 1 / (count(*)::int * 0) AS x FROM sandbox_user WHERE sandbox_id = $1';

describe('SandboxDb statements (issue 19: prepared statements)', () => {
  let t: TestApp;
  let db: SandboxDb;
  const inSandbox = <T>(work: () => Promise<T>) => SandboxContext.run(DEFAULT_SANDBOX_ID, work);
  beforeAll(async () => {
    t = await createTestApp();
    db = t.get(SandboxDb);
  });
  afterAll(() => t.close());

  it('a statement run twice on a connection is prepared there once, under a name of its text', async () => {
    const prepared = await inSandbox(() =>
      db.transaction(async () => {
        await db.query(COUNT_USERS);
        await db.query(COUNT_USERS);
        const manager = SandboxContext.current().manager!;
        return manager.query(`SELECT name, statement FROM pg_prepared_statements WHERE statement = $1`, [COUNT_USERS]);
      }),
    );
    expect(prepared).toEqual([{ name: expect.stringMatching(/^sdb_[0-9a-f]{40}$/), statement: COUNT_USERS }]);
  });

  it('a new connection prepares its statements again (the embedded database\'s one session outlives its connections)', async () => {
    const pool = (t.get(DataSource).driver as PostgresDriver).master as Pool;
    await inSandbox(() => db.query(COUNT_USERS));
    for (let round = 0; round < 2; round++) {
      // The pool closes connections (idle ones, broken ones): here every one it has.
      const clients = await Promise.all(Array.from({ length: pool.totalCount || 1 }, () => pool.connect()));
      for (const client of clients) client.release(true);
      expect(await inSandbox(() => db.query(COUNT_USERS))).toEqual([{ users: expect.any(Number) }]);
      expect(await inSandbox(() => db.query(COUNT_USERS))).toEqual([{ users: expect.any(Number) }]);
    }
  });

  it("answers in TypeORM's shapes: rows, and [rows, affected] for UPDATE and DELETE", async () => {
    expect(await inSandbox(() => db.query(COUNT_USERS))).toEqual([{ users: expect.any(Number) }]);
    const updated = await inSandbox(() => db.query(`UPDATE sandbox_user SET name = name WHERE sandbox_id = $1 AND personal_number = $2 RETURNING personal_number`, ['000000000000']));
    expect(updated).toEqual([[], 0]);
  });

  it("fails with TypeORM's QueryFailedError carrying the driver's error, and the connection serves the next statement", async () => {
    for (let round = 0; round < 2; round++) {
      const failure = await inSandbox(() => db.query(DIVIDE_BY_ZERO)).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(QueryFailedError);
      expect((failure as QueryFailedError & { driverError: { code: string } }).driverError.code).toBe('22012');
      expect(await inSandbox(() => db.query(COUNT_USERS))).toEqual([{ users: expect.any(Number) }]);
    }
  });
});
