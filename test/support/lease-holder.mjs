// A service process that dies holding job leases: it claims them as JobLeaseRepository.claim does
// (one conditional upsert, real database time), prints `claimed`, and waits to be killed with SIGKILL
// by the test (test/jobs.e2e-spec.ts, contract §6). Plain JavaScript, so node runs it as it is.
//
//   node lease-holder.mjs server   <DATABASE_URL> <lease ms> <job>...
//   node lease-holder.mjs embedded <DATA_DIR>     <lease ms> <job>...
import { randomUUID } from 'node:crypto';
import { closeSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';

const [mode, target, leaseMs, ...jobs] = process.argv.slice(2);
const CLAIM = `INSERT INTO job_lease (name, holder, leased_until)
               VALUES ($1, $2, clock_timestamp() + make_interval(secs => $3::double precision / 1000))
               ON CONFLICT (name) DO UPDATE SET holder = EXCLUDED.holder, leased_until = EXCLUDED.leased_until
                WHERE job_lease.holder IS NULL OR job_lease.leased_until < clock_timestamp()
               RETURNING name`;

let query;
if (mode === 'server') {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: target });
  await client.connect();
  query = (sql, params) => client.query(sql, params);
} else {
  // The embedded database's owner: the data-folder lock as DataDirLock takes it, then PGlite.
  const fd = openSync(join(target, 'sandbox.pid'), 'wx');
  writeSync(fd, String(process.pid));
  closeSync(fd);
  const { PGlite } = await import('@electric-sql/pglite');
  const db = await PGlite.create(join(target, 'pgdata'));
  query = (sql, params) => db.query(sql, params);
}

const holder = randomUUID();
for (const job of jobs) {
  const { rows } = await query(CLAIM, [job, holder, Number(leaseMs)]);
  if (rows.length !== 1) throw new Error(`could not claim ${job}`);
}
process.stdout.write(`claimed ${holder}\n`);
setInterval(() => undefined, 60_000); // hold until killed
