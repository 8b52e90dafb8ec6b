#!/usr/bin/env node
// One scheduled job pass over many sandboxes (contract §13 Time and jobs; issue 15: 10 000 sandboxes
// of which 100 have due work, under a second). Builds nothing: run `npm run build` first. Creates its
// own database on the PostgreSQL server named by DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres),
// starts the built app in this process (no HTTP), fills the sandboxes by SQL, times JobRunner.tick()
// and drops the database. A script, not a timed test: read the numbers.
//   usage: node scripts/job-pass-bench.mjs [--sandboxes 10000] [--due 100] [--keep 1]
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import pg from 'pg';

const require = createRequire(import.meta.url);
const args = Object.fromEntries(process.argv.slice(2).reduce((pairs, arg, i, all) => (arg.startsWith('--') ? [...pairs, [arg.slice(2), all[i + 1]]] : pairs), []));
const SANDBOXES = Number(args.sandboxes ?? 10_000);
const DUE = Number(args.due ?? 100);
const server = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

async function admin(sql) {
  const client = new pg.Client({ connectionString: server });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

const name = `job_pass_bench_${randomBytes(4).toString('hex')}`;
const url = new URL(server);
url.pathname = `/${name}`;
await admin(`CREATE DATABASE ${name}`);

let app;
try {
  require('reflect-metadata');
  const { NestFactory } = require('@nestjs/core');
  const { AppModule } = require('../dist/apps/api/src/app.module.js');
  const { JobRunner } = require('../dist/libs/common/src/index.js');
  const { DataSource } = require('typeorm');
  const env = { DATABASE_URL: url.toString(), SEED_DEMO: 'off', JOBS_INTERVAL_MS: '0', LOG_LEVEL: 'warn', DOWNTIME_CALENDAR: 'on' };
  app = await NestFactory.createApplicationContext(AppModule.forRoot({ env }), { logger: false });
  const db = app.get(DataSource);
  const runner = app.get(JobRunner);

  // Sandboxes with clocks anywhere in the coming year, half of them frozen; each already seen by the
  // downtime bookkeeping (as a running service has), each with one open eid order started just now
  // (not due). DUE of them also have an order started ten minutes ago (sandbox time): due work.
  const filling = performance.now();
  await db.query(`INSERT INTO sandbox (id, name) SELECT gen_random_uuid()::text, 'bench ' || g FROM generate_series(1, $1) g`, [SANDBOXES]);
  await db.query(
    `INSERT INTO sandbox_clock (sandbox_id, sandbox_anchor, real_anchor, frozen)
     SELECT id, timestamptz '2026-12-01 12:00+01' + random() * interval '365 days', clock_timestamp(), random() < 0.5
       FROM sandbox WHERE id <> 'default'`,
  );
  await db.query(
    `INSERT INTO sandbox_meta (sandbox_id, key, value)
     SELECT sandbox_id, 'downtime_observed_until', to_char(now AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') FROM sandbox_now
     ON CONFLICT (sandbox_id, key) DO UPDATE SET value = EXCLUDED.value`,
  );
  const order = (startedAt) => `
    INSERT INTO eid_order (id, sandbox_id, kind, channel, personal_number, behaviour, requested_by, status, hint_code, started_at,
                           autostart_token_hash, qr_start_token, qr_start_secret)
    SELECT gen_random_uuid(), n.sandbox_id, 'authentication', 'app', '191212121212', 'MANUAL', 'bench', 'PENDING', 'OUTSTANDING_TRANSACTION', ${startedAt},
           encode(sha256(gen_random_uuid()::text::bytea), 'hex'), gen_random_uuid(), 'secret'
      FROM sandbox_now n`;
  await db.query(order('n.now'));
  await db.query(`${order(`n.now - interval '10 minutes'`)} WHERE n.sandbox_id IN (SELECT id FROM sandbox WHERE id <> 'default' ORDER BY id LIMIT $1)`, [DUE]);
  await db.query('ANALYZE');
  console.log(`filled ${SANDBOXES} sandboxes (${DUE} with due work) in ${Math.round(performance.now() - filling)} ms`);

  let statements = 0;
  const logQuery = db.logger.logQuery.bind(db.logger);
  db.logger.logQuery = (...a) => {
    statements++;
    return logQuery(...a);
  };
  const pass = async (label) => {
    statements = 0;
    const started = performance.now();
    await runner.tick();
    console.log(`${label}: ${Math.round(performance.now() - started)} ms, ${statements} statements`);
  };
  await pass(`pass with ${DUE} sandboxes with due work`);
  const [{ closed }] = await db.query(`SELECT count(*)::int AS closed FROM eid_order WHERE status = 'FAILED'`);
  console.log(`orders closed: ${closed} (expected ${DUE})`);
  await pass('next pass, nothing due');
} finally {
  await app?.close();
  if (args.keep === undefined) await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  else console.log(`kept ${url}`);
}
