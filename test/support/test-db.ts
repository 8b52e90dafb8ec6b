import { randomBytes } from 'node:crypto';
import pg from 'pg';

export interface TestDatabase {
  /** The environment that points the app at this database. */
  env: Record<string, string>;
  /** True on the PostgreSQL server (several app instances may share it); false on embedded PGlite. */
  onServer: boolean;
  drop(): Promise<void>;
}

/** The server named by DATABASE_URL, if the suite runs against one (CI runs both ways). */
export const SERVER_URL = process.env.DATABASE_URL || undefined;

/**
 * A fresh, empty database for one test file: a new database on the PostgreSQL server when
 * DATABASE_URL is set (created beside the named one, dropped afterwards), else an in-memory
 * embedded PGlite (DATA_DIR=memory://), a real PostgreSQL that lives as long as the app.
 * Migrations run when the app starts, exactly as in production.
 */
export async function freshDatabase(): Promise<TestDatabase> {
  if (!SERVER_URL) {
    return { env: { DATABASE_URL: '', DATA_DIR: 'memory://' }, onServer: false, drop: () => Promise.resolve() };
  }
  const name = `sandbox_test_${randomBytes(6).toString('hex')}`;
  await withAdmin((client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  return {
    env: { DATABASE_URL: url.toString(), DATA_DIR: 'memory://' },
    onServer: true,
    drop: () => withAdmin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  };
}

async function withAdmin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: SERVER_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
