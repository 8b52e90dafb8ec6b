import { DataSource } from 'typeorm';
import { ADMIN_KEY, adminClient, inSandboxContext, testClock, type TestApp } from './test-app';

/** A sandbox as POST /sandboxes answers it (contract §13 Lifecycle). */
export interface CreatedSandbox {
  sandbox_id: string;
  name: string;
  base_url: string;
  admin_key: string;
  demo_partner_key?: string;
  created_at: string;
  last_used_at: string;
}

/** POST /sandboxes with the operator key. */
export async function createSandbox(t: TestApp, body: object = {}): Promise<CreatedSandbox> {
  return (await t.http.post('/sandboxes').set({ Authorization: `Bearer ${ADMIN_KEY}` }).send({ name: 'test sandbox', ...body }).expect(201)).body;
}

const METHODS = new Set(['get', 'post', 'put', 'patch', 'delete', 'del', 'head', 'options']);

/**
 * The test app as seen under a sandbox's prefix (contract §13 Addressing): every path of `http`
 * gets `/sandboxes/{id}` in front, `admin` uses the sandbox's own admin key, `clock` is its clock
 * and `get` runs a provider in its context. The helpers of ./psd2 and ./fixtures take it as they
 * take the root's app, so a flow is written once and driven in any sandbox.
 */
export function sandboxView(t: TestApp, sandbox: Pick<CreatedSandbox, 'sandbox_id' | 'admin_key'>, frozenAt?: string): TestApp {
  const prefix = `/sandboxes/${sandbox.sandbox_id}`;
  const http = new Proxy(t.http, {
    get(target, property, receiver) {
      const original: unknown = Reflect.get(target, property, receiver);
      if (typeof property !== 'string' || !METHODS.has(property) || typeof original !== 'function') return original;
      const method = original as (path: string, ...rest: unknown[]) => unknown;
      return (path: string, ...rest: unknown[]) => method.call(target, `${prefix}${path}`, ...rest);
    },
  });
  const admin = adminClient(http, sandbox.admin_key);
  return {
    ...t,
    http,
    admin,
    clock: testClock(admin, frozenAt ?? new Date().toISOString()),
    get: (token) => inSandboxContext(t.app.get(token), sandbox.sandbox_id),
  };
}

/** Every table that carries sandbox_id, from the schema itself: a new table is covered without a change here. */
export async function sandboxTables(dataSource: DataSource): Promise<string[]> {
  const rows: Array<{ table_name: string }> = await dataSource.query(
    // Tables only: a view (sandbox_now) shows rows it does not hold.
    `SELECT c.table_name FROM information_schema.columns c JOIN information_schema.tables t USING (table_schema, table_name)
      WHERE c.table_schema = current_schema() AND c.column_name = 'sandbox_id' AND t.table_type = 'BASE TABLE' ORDER BY c.table_name`,
  );
  return rows.map((row) => row.table_name);
}

/** Rows of the sandbox in every table that carries sandbox_id. */
export async function rowCounts(dataSource: DataSource, sandboxId: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of await sandboxTables(dataSource)) {
    const [{ n }] = await dataSource.query(`SELECT count(*)::int AS n FROM ${table} WHERE sandbox_id = $1`, [sandboxId]);
    counts[table] = n;
  }
  return counts;
}

/**
 * A digest of every row of the sandbox, table by table: equal digests mean nothing of the sandbox was
 * added, changed or removed in between.
 */
/**
 * Tables left out of the digests: the request journal records each request to a sandbox, the
 * test's own reads included, and is written asynchronously; its isolation is proven in
 * test/journal.e2e-spec.ts.
 */
const NOT_DIGESTED = ['journal_entry'];

export async function rowDigests(dataSource: DataSource, sandboxId: string): Promise<Record<string, string>> {
  const digests: Record<string, string> = {};
  for (const table of (await sandboxTables(dataSource)).filter((name) => !NOT_DIGESTED.includes(name))) {
    const [{ digest }] = await dataSource.query(`SELECT md5(coalesce(string_agg(r::text, '|' ORDER BY r::text), '')) AS digest FROM ${table} r WHERE r.sandbox_id = $1`, [sandboxId]);
    digests[table] = digest;
  }
  return digests;
}
