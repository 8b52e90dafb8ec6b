#!/usr/bin/env node
// npm run bench: the hot paths of the built service under load (autocannon), each against the
// performance ceiling of the stack (../shared/bench/ceiling.cjs: a bare NestJS route, and the same
// route doing one indexed read over a pg pool of 10), started beside the service on the same machine
// and loaded in alternating rounds with the same connections and duration (issue 19).
// On the embedded database (in memory) or the PostgreSQL server named by DATABASE_URL (each service
// and the ceiling in a scratch database of their own there, dropped at the end).
// A script, not a timed test: read the numbers.
// usage: npm run bench -- [--seconds 10] [--connections 50] [--rounds 3] [--sandboxes N] [--journal both|on|off|ab] [--scale] [--only TEXT] [--rate N] [--hostile-senders N]
// --rounds N: N rounds of the service and N of the ceiling, alternating, per scenario.
// --sandboxes N: N sandboxes exist (the default one and N-1 created through POST /sandboxes, contract
// §13) and every measured call goes to the last one created, under its /sandboxes/{id} prefix.
// --journal: the service runs with the request journal on (JOURNAL=on, contract §14) or off; both
// (the default) measures every path with it on, then runs a service with it on and one with it off
// side by side, alternating rounds of the AIS read and the status poll, and prints the difference
// the journal makes to their throughput; ab does only that comparison.
// Hostile bodies (contract §2, bounded work; `--only Hostile` runs only it): the bodies of the bounded-work
// rule (120 000 fields, 10 001 elements, 1 001 members in a fixture, 33 levels, the same at the token
// endpoints as JSON and as a form, 1 001 query parameters, unknown fields holding 250 000 objects, a fixture
// of 20 000 empty objects) sent to one sandbox by --hostile-senders (default 4) in parallel, on a loop,
// while the measured sandbox's AIS read is loaded at a steady rate: that read's latency and the service
// process's worst event-loop delay (perf_hooks.monitorEventLoopDelay, read through scripts/bench-event-loop.cjs,
// which the bench preloads into the service with --require and asks over an IPC channel: the service
// itself exposes nothing), without and with the hostile bodies. Target: no delay over 100 ms.
// --scale (needs DATABASE_URL): in a scratch database on that server, each hot path's latency on
// the empty database, then again after seeding 1 M access tokens, eid orders, transfers and journal
// entries and 10 000 sandboxes with set-based SQL.
import autocannon from 'autocannon';
import pg from 'pg';
import { spawn } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import { existsSync, openSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { resolve } from 'node:path';

const argv = process.argv.slice(2);
const args = {};
for (let i = 0; i < argv.length; i++) {
  if (!argv[i].startsWith('--')) continue;
  const next = argv[i + 1];
  if (next !== undefined && !next.startsWith('--')) args[argv[i++].slice(2)] = next;
  else args[argv[i].slice(2)] = true;
}
const SECONDS = Number(args.seconds ?? 10);
const CONNECTIONS = Number(args.connections ?? 50);
const ROUNDS = Number(args.rounds ?? 3);
const SANDBOXES = Number(args.sandboxes ?? 1);
const JOURNAL = args.journal ?? 'both';
const SCALE = args.scale === true;
const SERVER = process.env.DATABASE_URL;
// --only TEXT: only the scenarios whose title contains TEXT (profiling one hot path); `--only Idempotency`
// runs only the Idempotency-Key comparison.
const ONLY = typeof args.only === 'string' ? args.only : undefined;
// --rate N: every load at N requests a second in all (autocannon's overallRate) instead of as many as
// answered: the CPU time per request then varies less with what else the machine is doing.
const RATE = args.rate === undefined ? undefined : Number(args.rate);
const HOSTILE_SENDERS = Number(args['hostile-senders'] ?? 4);
if (!['both', 'on', 'off', 'ab'].includes(JOURNAL)) {
  console.error(`--journal must be both, on, off or ab (got ${JOURNAL})`);
  process.exit(2);
}
if (SCALE && !SERVER) {
  console.error('--scale seeds a PostgreSQL server: set DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/postgres); the embedded database is not measured at scale.');
  process.exit(2);
}
// The service runs with the Node flags of `npm start` (package.json), as a deployment runs it.
const START_NODE_ARGS = (() => {
  const start = JSON.parse(readFileSync('package.json', 'utf8')).scripts.start;
  const flags = /^node((?: --[^ ]+)*) dist\/apps\/api\/src\/main\.js$/.exec(start);
  if (!flags) throw new Error(`package.json's start script is not "node [--flags] dist/apps/api/src/main.js": ${start}`);
  return flags[1].split(' ').filter(Boolean);
})();
const CEILING_SCRIPT = resolve(process.env.BENCH_CEILING ?? '../shared/bench/ceiling.cjs');
if (!existsSync(CEILING_SCRIPT)) {
  console.error(`the ceiling ${CEILING_SCRIPT} is missing (set BENCH_CEILING to its path)`);
  process.exit(2);
}

// Targets of issue 19 (PostgreSQL server, 50 connections).
const TARGET_P99_MS = 50;
const TARGET_RSS_MB = 250;
const TARGET_SCALE = 1.2;

const AIS_READ = 'GET /v2/accounts (bearer token, two accounts)';
const STATUS_POLL = 'POST /psd2/auth/3.0/status (PENDING order)';
const TOKEN_ISSUE = 'POST /psd2/auth/1.0/token (non-authenticated)';

const freePort = () =>
  new Promise((done) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => done(port));
    });
  });

async function waitFor(url, what) {
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* not yet */
    }
    if (i > 240) throw new Error(`${what} did not answer ${url}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** A database on the server of DATABASE_URL: created now, dropped by the returned function. */
async function scratchDatabase(name) {
  const maintenance = new URL(SERVER);
  maintenance.pathname = '/postgres';
  const run = async (sql) => {
    const client = new pg.Client({ connectionString: maintenance.toString() });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await run(`CREATE DATABASE ${name}`);
  const url = new URL(SERVER);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => run(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

/** Starts a child process and returns its pid and a stop that waits for its exit. */
function startProcess(command, env, { ipc = false } = {}) {
  const stdio = ['ignore', process.env.BENCH_STDOUT ? openSync(process.env.BENCH_STDOUT, 'a') : 'ignore', 'inherit', ...(ipc ? ['ipc'] : [])];
  const child = spawn(process.execPath, command, { env, stdio });
  const kill = () => child.kill('SIGTERM');
  process.on('exit', kill);
  const exited = new Promise((done) => child.on('exit', done));
  return {
    pid: child.pid,
    child,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
      process.removeListener('exit', kill);
    },
  };
}

/** The ceiling beside the service: /ping, /poll and, with a database, /ping-db, /poll-db. */
async function startCeiling(databaseUrl) {
  const port = await freePort();
  const env = { ...process.env, NODE_PATH: resolve('node_modules'), PORT: String(port) };
  if (databaseUrl) env.CEILING_PG = databaseUrl;
  else delete env.CEILING_PG;
  const child = startProcess([CEILING_SCRIPT], env);
  const base = `http://127.0.0.1:${port}`;
  await waitFor(`${base}/ping`, 'the ceiling');
  return { ...child, base, withDb: Boolean(databaseUrl) };
}

/** Luhn check digit over YYMMDDNNN (a valid personal number). */
function personalNumber(year, mmdd, nnn) {
  const nine = `${String(year).slice(2)}${mmdd}${String(nnn).padStart(3, '0')}`;
  let sum = 0;
  for (let i = 0; i < 9; i++) {
    let d = Number(nine[i]) * (i % 2 === 0 ? 2 : 1);
    if (d > 9) d -= 9;
    sum += d;
  }
  return `${year}${mmdd}${String(nnn).padStart(3, '0')}${(10 - (sum % 10)) % 10}`;
}

/** Starts the built service with the journal on or off, prepares the measured sandbox and returns what a run needs. */
async function startService(journal, databaseUrl, { eventLoop = false } = {}) {
  const port = await freePort();
  const adminKey = randomBytes(16).toString('hex');
  const base = `http://127.0.0.1:${port}`;
  const env = { ...process.env, PORT: String(port), ADMIN_API_KEY: adminKey, DATA_DIR: 'memory://', SEED_DEMO: 'off', LOG_LEVEL: 'warn', JOBS_INTERVAL_MS: '0', JOURNAL: journal };
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  // With eventLoop, the bench's probe is preloaded (scripts/bench-event-loop.cjs) and answers over IPC.
  const probe = eventLoop ? ['--require', resolve('scripts/bench-event-loop.cjs')] : [];
  const service = startProcess([...START_NODE_ARGS, ...(process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? []), ...probe, 'dist/apps/api/src/main.js'], env, { ipc: eventLoop });
  /** The service's event-loop delay since the last call (max, p99, mean in ms); the histogram starts again. */
  const eventLoopDelay = () =>
    new Promise((done, fail) => {
      const timer = setTimeout(() => fail(new Error('the service did not report its event-loop delay')), 10_000);
      service.child.once('message', (message) => {
        clearTimeout(timer);
        done(message.eventLoopDelay);
      });
      service.child.send('event-loop-delay');
    });

  async function call(method, path, { headers = {}, json, form } = {}) {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { ...headers, ...(json ? { 'content-type': 'application/json' } : {}), ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
      body: json ? JSON.stringify(json) : form ? new URLSearchParams(form).toString() : undefined,
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${text}`);
    return text ? JSON.parse(text) : undefined;
  }

  await waitFor(`${base}/health`, 'the service');

  const admin = { authorization: `Bearer ${adminKey}` };
  // The measured sandbox: the default one, or the last of SANDBOXES - 1 created (a few at a time).
  let prefix = '';
  let sandboxId = 'default';
  if (SANDBOXES > 1) {
    const created = [];
    const started = performance.now();
    let next = 0;
    const createSome = async () => {
      while (next < SANDBOXES - 1) {
        const n = next++;
        created[n] = (await call('POST', '/sandboxes', { headers: admin, json: { name: `bench ${n}`, seed_demo: false } })).sandbox_id;
      }
    };
    await Promise.all(Array.from({ length: 8 }, createSome));
    sandboxId = created.at(-1);
    prefix = `/sandboxes/${sandboxId}`;
    console.log(`${SANDBOXES - 1} sandboxes created in ${((performance.now() - started) / 1000).toFixed(1)} s; measuring ${prefix}`);
    const timed = performance.now();
    await call('POST', '/sandboxes', { headers: admin, json: { name: 'bench with demo set' } });
    console.log(`one more with the demo set: ${(performance.now() - timed).toFixed(0)} ms`);
  }
  // A frozen clock keeps the polled order PENDING for the whole run (contract §4's 30-second rule).
  await call('PUT', `${prefix}/admin/clock`, { headers: admin, json: { now: '2026-11-24T10:00:00+01:00', frozen: true } });
  const pollUser = '199001011239';
  const tokenUser = '198507099805';
  await call('PUT', `${prefix}/admin/users/${pollUser}`, { headers: admin, json: { name: 'Bench Poll', kyc_completed: true, eid_behaviour: 'NO_RESPONSE' } });
  await call('PUT', `${prefix}/admin/users/${tokenUser}`, { headers: admin, json: { name: 'Bench Token', kyc_completed: true } });
  // AUTO_COMPLETE users whose authorize flows make the refresh tokens (one open order per person, so several people in parallel).
  const refreshUsers = Array.from({ length: 8 }, (_, i) => personalNumber(1970 + i, '0312', 100 + i));
  for (const user of refreshUsers) {
    await call('PUT', `${prefix}/admin/users/${user}`, { headers: admin, json: { name: 'Bench Refresh', kyc_completed: true, eid_behaviour: 'AUTO_COMPLETE' } });
    await call('POST', `${prefix}/admin/users/${user}/accounts`, { headers: admin, json: { name: 'Konto', currency: 'SEK', balance: 1000 } });
  }
  const { certificate } = await call('GET', `${prefix}/sandbox/test-certificate?roles=PSP_AI,PSP_PI&organization_id=PSDSE-BENCH-${randomInt(1e6)}`);
  const psd2 = { 'x-psd2-client-test-cert': certificate, 'psu-ip-address': '192.0.2.10' };
  const accounts = [];
  for (let i = 0; i < 2; i++) {
    accounts.push((await call('POST', `${prefix}/admin/users/${tokenUser}/accounts`, { headers: admin, json: { name: `Konto ${i}`, currency: 'SEK', balance: 1000 } })).account_number);
  }
  const { access_token } = await call('POST', `${prefix}/psd2/auth/1.0/token`, { headers: psd2, form: { grant_type: 'non_authenticated_token', user_id: tokenUser } });
  // A partner signing left PENDING (a NO_RESPONSE user on a frozen clock) for collect polling.
  const partner = await call('POST', `${prefix}/admin/partners`, { headers: admin, json: { name: 'Bench Partner' } });
  const partnerHeaders = { authorization: `Bearer ${partner.api_key}` };
  const preApproval = await call('POST', `${prefix}/mortgage/2.0/pre-approval`, {
    headers: partnerHeaders,
    json: { applicants: [{ personal_number: pollUser, yearly_income: 800000 }], loan_amount: 2000000 },
  });
  const accepted = await call('POST', `${prefix}/mortgage/2.0/pre-approval/${preApproval.id}/acceptance`, { headers: partnerHeaders, json: { with_unsecured_loan: false } });
  const participantId = accepted.signing_process.participants[0].id;
  await call('POST', `${prefix}/signing/1.0/start`, { headers: partnerHeaders, json: { participant_id: participantId } });
  const { pending_code } = await call('POST', `${prefix}/psd2/auth/3.0/authenticate`, {
    headers: { ...psd2, 'x-sandbox-user': pollUser },
    json: { end_user_ip: '192.0.2.10', start_mode: 'AUTO_START', scopes: 'AIS,PIS' },
  });

  /** Refresh tokens through the authorize flow (start, one status call completes an AUTO_COMPLETE user, exchange), `count` of them. */
  async function refreshTokens(count) {
    const tokens = [];
    await Promise.all(
      refreshUsers.map(async (user) => {
        while (tokens.length < count) {
          const started = await call('POST', `${prefix}/psd2/auth/3.0/authorize`, {
            headers: { ...psd2, 'x-sandbox-user': user },
            json: { end_user_ip: '192.0.2.10', start_mode: 'AUTO_START', scopes: 'AIS' },
          });
          const status = await call('POST', `${prefix}/psd2/auth/3.0/status`, { headers: psd2, json: { pending_code: started.pending_code } });
          if (status.eid_auth_status !== 'COMPLETE') throw new Error(`an AUTO_COMPLETE authorize answered ${JSON.stringify(status)}`);
          const granted = await call('POST', `${prefix}/psd2/auth/1.0/token`, { headers: psd2, form: { grant_type: 'pending_authorization_code', pending_code: started.pending_code } });
          tokens.push(granted.refresh_token);
        }
      }),
    );
    return tokens;
  }

  const transfer = {
    path: `/v3/accounts/${accounts[0]}/transfers`,
    method: 'POST',
    headers: { ...psd2, authorization: `Bearer ${access_token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ amount: 1, currency: 'SEK', transfer_date: '2026-11-30', recipient_account_number: '5050-1055', recipient_name: 'Bench' }),
  };
  const refresh = {
    path: '/psd2/auth/1.0/token',
    method: 'POST',
    headers: { ...psd2, 'content-type': 'application/x-www-form-urlencoded' },
  };
  // title, request, the ceiling route it is held against and the target ratio to it.
  const scenarios = [
    { title: AIS_READ, request: { path: '/v2/accounts', method: 'GET', headers: { ...psd2, authorization: `Bearer ${access_token}` } }, target: 0.8 },
    {
      title: 'POST /signing/1.0/collect (PENDING signing)',
      request: { path: '/signing/1.0/collect', method: 'POST', headers: { ...partnerHeaders, 'content-type': 'application/json' }, body: JSON.stringify({ participant_id: participantId }) },
      target: 0.8,
    },
    { title: STATUS_POLL, request: { path: '/psd2/auth/3.0/status', method: 'POST', headers: { ...psd2, 'content-type': 'application/json' }, body: JSON.stringify({ pending_code }) }, target: 0.8 },
    {
      title: TOKEN_ISSUE,
      request: { path: '/psd2/auth/1.0/token', method: 'POST', headers: { ...psd2, 'content-type': 'application/x-www-form-urlencoded' }, body: `grant_type=non_authenticated_token&user_id=${tokenUser}` },
      target: 0.6,
    },
    { title: 'POST /psd2/auth/1.0/token (refresh_token grant)', request: refresh, target: 0.6, refresh: true },
    { title: 'POST /v3/…/transfers (creation, no Idempotency-Key)', request: transfer, target: 0.6 },
  ];
  return { base, prefix, sandboxId, pid: service.pid, scenarios, transfer, refreshTokens, tokenUser, account: accounts[0], psd2, adminKey, eventLoopDelay: eventLoop ? eventLoopDelay : null, stop: service.stop };
}

/**
 * One round of load; with `pid`, also the CPU time that process spent per request answered, and
 * that the PostgreSQL server's processes on this machine spent (they share its cores).
 */
async function load(url, request, duration = SECONDS, pid) {
  const cpuBefore = pid === undefined ? null : cpuMs(pid);
  const dbBefore = pid === undefined ? null : postgresCpuMs();
  const result = await autocannon({ url: `${url}${request.path}`, connections: CONNECTIONS, duration, ...(RATE ? { overallRate: RATE } : {}), ...request });
  const cpuAfter = pid === undefined ? null : cpuMs(pid);
  const dbAfter = pid === undefined ? null : postgresCpuMs();
  const perRequest = (before, after) => (before === null || after === null || result.requests.total === 0 ? null : ((after - before) * 1000) / result.requests.total);
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.non2xx + result.errors,
    cpuUs: perRequest(cpuBefore, cpuAfter),
    dbCpuUs: SERVER ? perRequest(dbBefore, dbAfter) : null,
  };
}

const mean = (values) => (values.some((v) => v === null || v === undefined) ? null : values.reduce((sum, v) => sum + v, 0) / values.length);

/** The mean req/s of the rounds, the worst round's p50 and p99, all errors. */
const combine = (rounds) => ({
  rps: rounds.reduce((sum, r) => sum + r.rps, 0) / rounds.length,
  cpuUs: mean(rounds.map((r) => r.cpuUs)),
  dbCpuUs: mean(rounds.map((r) => r.dbCpuUs)),
  p50: Math.max(...rounds.map((r) => r.p50)),
  p99: Math.max(...rounds.map((r) => r.p99)),
  errors: rounds.reduce((sum, r) => sum + r.errors, 0),
});

/** User and system CPU time a process has used, in ms (Linux /proc, clock ticks of 10 ms), or null. */
function cpuMs(pid) {
  try {
    // The fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ').pop().split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

/**
 * CPU time of every `postgres` process on this machine, in ms (the server of DATABASE_URL when it is
 * local), or null. A backend that exited (a pool closing an idle connection) leaves its time in its
 * parent's children's time (cutime, cstime), which is counted too: else the sum would drop with it.
 */
function postgresCpuMs() {
  try {
    let total = 0;
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
        if (!stat.includes('(postgres)')) continue;
        const fields = stat.split(') ').pop().split(' ');
        total += (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) * 10;
      } catch {
        // gone meanwhile
      }
    }
    return total;
  } catch {
    return null;
  }
}

/** VmRSS of a process in MB (Linux), or null. */
function rssMb(pid) {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) / 1024 : null;
  } catch {
    return null;
  }
}

const meets = (ok) => (ok ? 'met' : 'NOT met');

/**
 * The refresh-token grant: a refresh token serves 4 uses a Stockholm day (bank §5.5), so the requests
 * take the tokens of a pool made through the authorize flow before the run, each token for its 4
 * allowed uses and no more. The pool is sized from `expectedRps` (the token issue just measured, or a
 * short load of it when the run did not measure it) with half again as much to spare; should it still
 * run dry, the requests beyond it reuse spent tokens and count as errors (400 invalid_grant).
 */
async function refreshRequest(service, scenario, expectedRps) {
  expectedRps ??= await tokenIssueRps(service);
  const uses = Math.ceil(expectedRps * 1.5 * (SECONDS * ROUNDS + 2));
  const started = performance.now();
  const pool = await service.refreshTokens(Math.max(8, Math.ceil(uses / 4)));
  const made = (performance.now() - started) / 1000;
  let next = 0;
  const request = {
    ...scenario.request,
    requests: [{ setupRequest: (req) => ({ ...req, body: `grant_type=refresh_token&refresh_token=${pool[Math.floor(next++ / 4) % pool.length]}` }) }],
  };
  const note = () =>
    `refresh tokens: ${pool.length} made through the authorize flow before the run (in ${made.toFixed(0)} s), ` +
    `each used at most its 4 allowed uses a day; ${next} requests${next > pool.length * 4 ? `, ${next - pool.length * 4} beyond the pool (spent tokens: errors)` : ''}`;
  return { request, note };
}

/**
 * The token issue's req/s in a short load, for sizing the refresh pool when the run did not measure
 * it (`--only refresh`): a guess too low would leave the pool dry and count its requests as errors.
 */
async function tokenIssueRps(service) {
  const { request } = service.scenarios.find(({ title }) => title === TOKEN_ISSUE);
  return (await load(`${service.base}${service.prefix}`, request, 2)).rps;
}

/** Each scenario (those named, or all) against its ceiling route in alternating rounds; req/s and the ratio by title. */
async function compare(service, ceiling, only) {
  const results = {};
  const chosen = ({ title }) => (!only || only.includes(title)) && (!ONLY || title.includes(ONLY));
  for (const scenario of service.scenarios.filter(chosen)) {
    let { request } = scenario;
    let note;
    if (scenario.refresh) ({ request, note } = await refreshRequest(service, scenario, results[TOKEN_ISSUE]?.rps));
    const route = `${request.method === 'GET' ? '/ping' : '/poll'}${ceiling.withDb ? '-db' : ''}`;
    const bare = { path: route, method: request.method, ...(request.method === 'GET' ? {} : { headers: { 'content-type': 'application/json' }, body: '{}' }) };
    // Warm both first, so neither is measured while the JIT is still compiling it.
    await load(`${service.base}${service.prefix}`, request, 2);
    await load(ceiling.base, bare, 2);
    const own = [];
    const ceil = [];
    for (let round = 0; round < ROUNDS; round++) {
      own.push(await load(`${service.base}${service.prefix}`, request, SECONDS, service.pid));
      ceil.push(await load(ceiling.base, bare, SECONDS, ceiling.pid));
    }
    const rss = rssMb(service.pid);
    const s = combine(own);
    const c = combine(ceil);
    const ratio = s.rps / c.rps;
    console.log(scenario.title);
    const cpu = (r) => (r.cpuUs === null ? '' : `   CPU ${r.cpuUs.toFixed(0).padStart(4)} µs/request`) + (r.dbCpuUs === null ? '' : ` (database ${r.dbCpuUs.toFixed(0).padStart(4)} µs)`);
    console.log(`  service  ${s.rps.toFixed(0).padStart(7)} req/s   p99 ${String(s.p99).padStart(4)} ms   errors ${s.errors}${cpu(s)}`);
    console.log(`  ceiling  ${c.rps.toFixed(0).padStart(7)} req/s   p99 ${String(c.p99).padStart(4)} ms   errors ${c.errors}${cpu(c)}   (${request.method} ${route})`);
    console.log(`  ratio ${ratio.toFixed(2)} (target ≥ ${scenario.target}: ${meets(ratio >= scenario.target)})   p99 ${s.p99} ms (target ≤ ${TARGET_P99_MS}: ${meets(s.p99 <= TARGET_P99_MS)})` +
      `   RSS ${rss === null ? 'unknown' : `${rss.toFixed(0)} MB (target ≤ ${TARGET_RSS_MB}: ${meets(rss <= TARGET_RSS_MB)})`}`);
    if (note) console.log(`  ${note()}`);
    if (!SERVER && rss !== null) console.log('  (the embedded database runs inside the service process: its RSS counts in)');
    console.log('');
    results[scenario.title] = { rps: s.rps, ratio };
  }
  return results;
}

const IDEMPOTENCY_TITLE = 'Idempotency-Key (contract §15)';

/**
 * Transfer creation without and with Idempotency-Key (contract §15): a fresh key per request costs
 * two statements (claim, complete); a retry with one key is one statement and runs nothing else (its
 * "errors" are the 409 IDEMPOTENCY_KEY_IN_USE of the requests sent while the first one ran).
 */
async function measureIdempotency(service) {
  const { transfer } = service;
  const url = `${service.base}${service.prefix}`;
  let keys = 0;
  const freshKey = { ...transfer, requests: [{ setupRequest: (req) => ({ ...req, headers: { ...req.headers, 'idempotency-key': `bench-${process.pid}-${keys++}` } }) }] };
  const replayedKey = { ...transfer, headers: { ...transfer.headers, 'idempotency-key': `bench-replayed-${process.pid}` } };
  await load(url, transfer, 2);
  await load(url, freshKey, 2);
  const line = (title, r) => `${title.padEnd(46)} ${r.rps.toFixed(0).padStart(7)} req/s   p99 ${String(r.p99).padStart(4)} ms   errors ${r.errors}`;
  const without = await load(url, transfer);
  const fresh = await load(url, freshKey);
  const replayed = await load(url, replayedKey);
  console.log(`${IDEMPOTENCY_TITLE}, one round each:`);
  console.log(line('POST /v3/…/transfers, no Idempotency-Key', without));
  console.log(line('POST /v3/…/transfers, a new key each', fresh));
  console.log(line('POST /v3/…/transfers, one key (replays)', replayed));
  console.log(`${''.padEnd(46)} ratio new key ${(fresh.rps / without.rps).toFixed(2)}, replay ${(replayed.rps / without.rps).toFixed(2)}\n`);
}

const HOSTILE_TITLE = 'Hostile bodies (contract §2, bounded work)';
/** Contract §2: the event loop is never blocked for more than 100 ms by one request. */
const TARGET_LOOP_DELAY_MS = 100;
/** The AIS read's steady rate while it is measured: well below saturation, so its latency shows stalls, not queueing. */
const HOSTILE_READ_RATE = 100;

/** The bodies of the bounded-work rule, each with where it goes; `sandbox` is the hostile sandbox's prefix, `adminKey` its key. */
function hostileRequests(sandbox, adminKey, psd2) {
  const members = (count) => `{${Array.from({ length: count }, (_, i) => `"${i.toString(36)}":0`).join(',')}}`;
  const empties = (count) => `[${Array(count).fill('{}').join(',')}]`;
  const fields120k = members(120_000);
  const json = { 'content-type': 'application/json' };
  const admin = { ...json, authorization: `Bearer ${adminKey}` };
  const form = { ...psd2, 'content-type': 'application/x-www-form-urlencoded' };
  return [
    { what: '120 000 unknown fields, no credentials', method: 'POST', path: '/sandbox/eid/open', headers: json, body: fields120k },
    { what: 'fixture.users of 10 001 elements', method: 'POST', path: '/admin/seed', headers: admin, body: `{"users":${empties(10_001)}}` },
    { what: '15 users of 1 001 members in a fixture', method: 'POST', path: '/admin/seed', headers: admin, body: `{"users":[${Array(15).fill(members(1001)).join(',')}]}` },
    { what: '33 levels', method: 'POST', path: '/sandbox/eid/open', headers: json, body: '['.repeat(33) + ']'.repeat(33) },
    { what: '120 000 fields as JSON at the PSD2 token endpoint', method: 'POST', path: '/psd2/auth/1.0/token', headers: { ...psd2, ...json }, body: fields120k },
    { what: '120 000 parameters as a form at the PSD2 token endpoint', method: 'POST', path: '/psd2/auth/1.0/token', headers: form, body: Array.from({ length: 120_000 }, (_, i) => `${i.toString(36)}=`).join('&') },
    { what: '1 001 query parameters', method: 'GET', path: `/sandbox/eid/operations?${Array.from({ length: 1001 }, (_, i) => `p${i}=1`).join('&')}`, headers: {} },
    { what: 'unknown fields holding 250 000 objects', method: 'POST', path: '/sandbox/eid/open', headers: json, body: `{${Array.from({ length: 25 }, (_, i) => `"f${i}":${empties(10_000)}`).join(',')}}` },
    { what: 'a fixture of 1 000 users with 20 empty accounts each', method: 'POST', path: '/admin/seed', headers: admin, body: `{"users":[${Array(1000).fill(`{"accounts":${empties(20)}}`).join(',')}]}` },
  ].map((request) => ({ ...request, path: `${sandbox}${request.path}` }));
}

/**
 * Hostile bodies (contract §2, bounded work): the measured sandbox's AIS read at a steady rate, and
 * the service's event-loop delay, without and with HOSTILE_SENDERS clients sending the bodies of the
 * bounded-work rule to another sandbox on a loop; the worst of ROUNDS rounds each. Every hostile
 * answer must be a 400 within 16 KB.
 */
async function measureHostileBodies(service) {
  const { sandbox_id: hostileId, admin_key: hostileKey } = await (
    await fetch(`${service.base}/sandboxes`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${service.adminKey}` },
      body: JSON.stringify({ name: 'bench hostile', seed_demo: false }),
    })
  ).json();
  const requests = hostileRequests(`/sandboxes/${hostileId}`, hostileKey, service.psd2);
  const read = service.scenarios.find(({ title }) => title === AIS_READ).request;
  const readLoad = () => autocannon({ url: `${service.base}${service.prefix}${read.path}`, connections: 8, duration: SECONDS, overallRate: HOSTILE_READ_RATE, ...read });
  const answers = { count: 0, statuses: {}, largest: 0, slowest: 0 };
  const sender = async (stopAt, first) => {
    for (let i = first; performance.now() < stopAt; i++) {
      const { method, path, headers, body } = requests[i % requests.length];
      const started = performance.now();
      const res = await fetch(`${service.base}${path}`, { method, headers, body });
      const bytes = (await res.arrayBuffer()).byteLength;
      answers.count++;
      answers.statuses[res.status] = (answers.statuses[res.status] ?? 0) + 1;
      answers.largest = Math.max(answers.largest, bytes);
      answers.slowest = Math.max(answers.slowest, performance.now() - started);
    }
  };
  const phase = async (withHostile) => {
    await service.eventLoopDelay();
    const stopAt = performance.now() + SECONDS * 1000;
    const [reads] = await Promise.all([readLoad(), ...(withHostile ? Array.from({ length: HOSTILE_SENDERS }, (_, i) => sender(stopAt, i * 2)) : [])]);
    const loop = await service.eventLoopDelay();
    return { p50: reads.latency.p50, p99: reads.latency.p99, max: reads.latency.max, errors: reads.non2xx + reads.errors, loopMax: loop.max, loopP99: loop.p99 };
  };
  // Warm both paths first (the JIT), unmeasured.
  await sender(performance.now() + 2000, 0);
  await readLoad();
  const without = [];
  const withHostile = [];
  for (let round = 0; round < ROUNDS; round++) {
    without.push(await phase(false));
    withHostile.push(await phase(true));
  }
  const worst = (rounds, key) => Math.max(...rounds.map((r) => r[key]));
  const line = (title, rounds) =>
    `  ${title.padEnd(24)} AIS read p50 ${String(worst(rounds, 'p50')).padStart(4)} ms, p99 ${String(worst(rounds, 'p99')).padStart(4)} ms, max ${String(worst(rounds, 'max')).padStart(5)} ms, errors ${rounds.reduce((n, r) => n + r.errors, 0)}` +
    `   event-loop delay max ${worst(rounds, 'loopMax').toFixed(0).padStart(4)} ms (p99 ${worst(rounds, 'loopP99').toFixed(0)} ms)`;
  console.log(`${HOSTILE_TITLE}: ${ROUNDS} round(s) of ${SECONDS} s each, the AIS read at ${HOSTILE_READ_RATE} req/s over 8 connections in ${service.prefix || 'the default sandbox'}, ${HOSTILE_SENDERS} hostile senders to sandbox ${hostileId}:`);
  console.log(line('without hostile bodies', without));
  console.log(line('with hostile bodies', withHostile));
  const loopMax = worst(withHostile, 'loopMax');
  console.log(`  worst event-loop delay with hostile bodies ${loopMax.toFixed(0)} ms (target < ${TARGET_LOOP_DELAY_MS}: ${meets(loopMax < TARGET_LOOP_DELAY_MS)})`);
  const statuses = Object.entries(answers.statuses).map(([status, n]) => `${n} × ${status}`).join(', ');
  console.log(`  hostile answers: ${answers.count} (${statuses}), largest ${answers.largest} bytes (limit 16384: ${meets(answers.largest <= 16384)}), slowest ${answers.slowest.toFixed(0)} ms`);
  console.log(`  bodies, round robin: ${requests.map(({ what }) => what).join('; ')}\n`);
}

const databaseName = () => (SERVER ? `PostgreSQL server (scratch database bench_${process.pid}_journal_…)` : 'embedded PostgreSQL (in memory)');

/** One service with the journal on or off, against the ceiling: the scenarios named (all when absent). */
async function measure(journal, ceiling, only) {
  // On the server each service gets a scratch database of its own (a fresh world, as the embedded one is).
  const scratch = SERVER ? await scratchDatabase(`bench_${process.pid}_journal_${journal}`) : null;
  try {
    const hostile = !only && (!ONLY || HOSTILE_TITLE.includes(ONLY));
    const service = await startService(journal, scratch?.url, { eventLoop: hostile });
    console.log(`journal ${journal}: ${ROUNDS} round(s) of ${SECONDS} s per side, ${CONNECTIONS} connections, ${databaseName()}, ${SANDBOXES} sandbox(es)\n`);
    const results = await compare(service, ceiling, only);
    if (!only && (!ONLY || IDEMPOTENCY_TITLE.includes(ONLY))) await measureIdempotency(service);
    if (hostile) await measureHostileBodies(service);
    await service.stop();
    return results;
  } finally {
    await scratch?.drop();
  }
}

/**
 * The journal's cost (contract §14: less than 10 %), measured A/B: a service with the journal on and
 * one with it off run side by side (each on its own database), and their rounds alternate, so the
 * drift of a busy machine falls on both alike.
 */
async function compareJournal() {
  if (![AIS_READ, STATUS_POLL].some((title) => ONLY === undefined || title.includes(ONLY))) return;
  const scratch = SERVER ? await Promise.all(['on', 'off'].map((journal) => scratchDatabase(`bench_${process.pid}_ab_${journal}`))) : [null, null];
  const services = [];
  try {
    for (const [i, journal] of ['on', 'off'].entries()) services.push(await startService(journal, scratch[i]?.url));
    const [on, off] = services;
    const percent = (a, b) => `${a >= b ? '+' : ''}${(((a - b) / b) * 100).toFixed(1)} %`;
    const cpu = (us) => (us === null ? '?' : us.toFixed(0));
    console.log(`The journal on against off, side by side in alternating rounds (${ROUNDS} of ${SECONDS} s each; contract §14: target less than 10 % slower):`);
    for (const title of [AIS_READ, STATUS_POLL].filter((title) => ONLY === undefined || title.includes(ONLY))) {
      const requestOf = (service) => service.scenarios.find((scenario) => scenario.title === title).request;
      for (const service of [on, off]) await load(`${service.base}${service.prefix}`, requestOf(service), 2);
      const rounds = { on: [], off: [] };
      for (let round = 0; round < ROUNDS; round++) {
        // Which goes first alternates too.
        const order = round % 2 === 0 ? [['on', on], ['off', off]] : [['off', off], ['on', on]];
        for (const [name, service] of order) rounds[name].push(await load(`${service.base}${service.prefix}`, requestOf(service), SECONDS, service.pid));
      }
      const a = combine(rounds.on);
      const b = combine(rounds.off);
      console.log(
        `${title.padEnd(46)} on ${a.rps.toFixed(0).padStart(7)} req/s (p99 ${a.p99} ms)   off ${b.rps.toFixed(0).padStart(7)} req/s (p99 ${b.p99} ms)   ${percent(a.rps, b.rps).padStart(8)}`,
      );
      // CPU time per request varies less than req/s on a shared machine: what the journal costs, where.
      console.log(`${''.padEnd(46)} CPU µs/request: service on ${cpu(a.cpuUs)}, off ${cpu(b.cpuUs)}${SERVER ? `; database on ${cpu(a.dbCpuUs)}, off ${cpu(b.dbCpuUs)}` : ''}`);
      // The journal kept up: what it wrote, and lost (a full buffer drops entries rather than memory).
      const journal = (await (await fetch(`${on.base}/health`)).json()).details?.journal;
      console.log(`${''.padEnd(46)} journal so far: written ${journal?.written}, buffered ${journal?.buffered}, lost ${journal?.lost}, failed writes ${journal?.failed_writes}`);
    }
  } finally {
    for (const service of services) await service.stop();
    for (const db of scratch) await db?.drop();
  }
}

/** Seeds the volumes of issue 19 into the service's database with set-based SQL. */
async function seed(databaseUrl, service) {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  const timed = async (what, sql, params) => {
    const started = performance.now();
    const result = await db.query(sql, params);
    console.log(`  ${what}: ${result.rowCount ?? ''} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  };
  try {
    const existing = Number((await db.query('SELECT count(*) AS n FROM sandbox')).rows[0].n);
    await timed('sandboxes', `INSERT INTO sandbox (id, name) SELECT gen_random_uuid()::text, 'bench seed ' || g FROM generate_series(1, $1) g`, [10000 - existing]);
    await timed('their clocks', `INSERT INTO sandbox_clock (sandbox_id, sandbox_anchor, real_anchor, frozen)
       SELECT id, timestamptz '2026-11-24 10:00+01', clock_timestamp(), true FROM sandbox WHERE name LIKE 'bench seed %'`);
    await timed('their users', `INSERT INTO sandbox_user (sandbox_id, personal_number, name, kyc_completed) SELECT id, '191212121212', 'Seed', true FROM sandbox WHERE name LIKE 'bench seed %'`);
    await timed('their accounts', `INSERT INTO account (sandbox_id, account_number, owner_personal_number, name, currency, balance)
       SELECT id, '5050123456', '191212121212', 'Seed', 'SEK', 1000 FROM sandbox WHERE name LIKE 'bench seed %'`);
    await timed('their TPPs', `INSERT INTO tpp (sandbox_id, identifier) SELECT id, 'PSDSE-SEED' FROM sandbox WHERE name LIKE 'bench seed %'`);
    // Where rows go: k = 0 is the measured sandbox (a quarter of every table), 1..n the seeded ones.
    await db.query(`CREATE TEMP TABLE seed_target AS
       SELECT 0 AS k, $1::text AS sandbox_id, (SELECT id FROM tpp WHERE sandbox_id = $1 ORDER BY created_at LIMIT 1) AS tpp_id, $2::char(12) AS pn, $3::text AS account_number
       UNION ALL
       SELECT row_number() OVER (ORDER BY s.id), s.id, t.id, '191212121212', '5050123456' FROM sandbox s JOIN tpp t ON t.sandbox_id = s.id WHERE s.name LIKE 'bench seed %'`,
      [service.sandboxId, service.tokenUser, service.account]);
    await db.query('CREATE UNIQUE INDEX ON seed_target (k)');
    const n = Number((await db.query('SELECT count(*) - 1 AS n FROM seed_target')).rows[0].n);
    const rows = `FROM generate_series(1, 1000000) g JOIN seed_target t ON t.k = CASE WHEN g % 4 = 0 THEN 0 ELSE 1 + g % ${n} END`;
    await timed('access tokens', `INSERT INTO psd2_access_token (sandbox_id, token_hash, kind, tpp_id, personal_number, scopes, issued_at, expires_at)
       SELECT t.sandbox_id, encode(sha256(('bench-seed-' || g)::bytea), 'hex'), 'authenticate', t.tpp_id, t.pn, '{AIS,PIS}',
              timestamptz '2026-11-24 10:00+01' - (g % 100000) * interval '1 minute', timestamptz '2026-11-24 10:30+01' - (g % 100000) * interval '1 minute' ${rows}`);
    await timed('eid orders', `INSERT INTO eid_order (id, sandbox_id, kind, channel, personal_number, behaviour, requested_by, status, started_at, app_opened_at, finished_at,
                              final_reported_at, qr_start_token, qr_start_secret, autostart_token_hash)
       SELECT gen_random_uuid(), t.sandbox_id, 'authentication', 'app', t.pn, 'AUTO_COMPLETE', 'bench seed', 'COMPLETE', at, at, at + interval '2 seconds',
              at + interval '2 seconds', gen_random_uuid(), 'seed', encode(sha256(('bench-seed-' || g)::bytea), 'hex')
         FROM (SELECT g, timestamptz '2026-11-24 09:00+01' - (g % 100000) * interval '1 minute' AS at FROM generate_series(1, 1000000) g) o
         JOIN seed_target t ON t.k = CASE WHEN g % 4 = 0 THEN 0 ELSE 1 + g % ${n} END`);
    await timed('transfers', `INSERT INTO transfer (reference_id, sandbox_id, account_number, owner_personal_number, tpp_id, amount, currency, transfer_date,
                              recipient_account_number, recipient_name, status, created_at, signed_at, executed_at)
       SELECT gen_random_uuid(), t.sandbox_id, t.account_number, t.pn, t.tpp_id, 1, 'SEK', date '2026-11-23' - (g % 365),
              '5050-1055', 'Seed', 'EXECUTED', at, at, at
         FROM (SELECT g, timestamptz '2026-11-23 09:00+01' - (g % 365) * interval '1 day' AS at FROM generate_series(1, 1000000) g) o
         JOIN seed_target t ON t.k = CASE WHEN g % 4 = 0 THEN 0 ELSE 1 + g % ${n} END`);
    await timed('journal entries', `INSERT INTO journal_entry (sandbox_id, request_id, arrived_at, at, method, path, status, duration_ms, caller_kind, caller_id, request, response)
       SELECT t.sandbox_id, 'bench-seed-' || g, now() - (g % 86400) * interval '1 second', timestamptz '2026-11-24 10:00+01', 'GET', '/v2/accounts', 200, 3,
              'tpp', t.tpp_id::text, '{}', '{}' ${rows}`);
    // A table that grew to this size over time has been vacuumed and its pages written out: without
    // these the seeded phase would share the machine with the autovacuum and the checkpoint that
    // follow four million inserted rows.
    await timed('VACUUM (ANALYZE)', 'VACUUM (ANALYZE)');
    await timed('CHECKPOINT', 'CHECKPOINT').catch((error) => console.log(`  CHECKPOINT: not run (${error.message})`));
  } finally {
    await db.end();
  }
}

/** --scale: each hot path's latency on the empty database, then after seeding; the ratio. */
async function measureScale() {
  const scratch = await scratchDatabase(`bench_scale_${process.pid}`);
  try {
    const journal = JOURNAL === 'off' ? 'off' : 'on';
    const service = await startService(journal, scratch.url);
    console.log(`--scale: journal ${journal}, ${ROUNDS} round(s) of ${SECONDS} s, ${CONNECTIONS} connections, scratch database bench_scale_${process.pid} on the PostgreSQL server\n`);
    const scenarios = service.scenarios.filter(({ title }) => !ONLY || title.includes(ONLY));
    const phase = async () => {
      const latency = {};
      for (const scenario of scenarios) {
        let { request } = scenario;
        if (scenario.refresh) ({ request } = await refreshRequest(service, scenario, latency[TOKEN_ISSUE]?.rps));
        await load(`${service.base}${service.prefix}`, request, 2);
        const rounds = [];
        for (let round = 0; round < ROUNDS; round++) rounds.push(await load(`${service.base}${service.prefix}`, request));
        latency[scenario.title] = combine(rounds);
        console.log(`  ${scenario.title}: p50 ${latency[scenario.title].p50} ms, p99 ${latency[scenario.title].p99} ms, errors ${latency[scenario.title].errors}`);
      }
      return latency;
    };
    console.log('empty database:');
    const empty = await phase();
    console.log('seeding (set-based SQL):');
    const started = performance.now();
    await seed(scratch.url, service);
    console.log(`seeded in ${((performance.now() - started) / 1000).toFixed(0)} s\n`);
    console.log('seeded database:');
    const seeded = await phase();
    console.log('');
    console.log(`${'Hot path'.padEnd(52)} ${'empty p50/p99'.padStart(14)} ${'seeded p50/p99'.padStart(15)}   p99 ratio (target ≤ ${TARGET_SCALE})`);
    for (const { title } of scenarios) {
      const e = empty[title];
      const s = seeded[title];
      const ratio = s.p99 / e.p99;
      console.log(`${title.padEnd(52)} ${`${e.p50}/${e.p99} ms`.padStart(14)} ${`${s.p50}/${s.p99} ms`.padStart(15)}   ${ratio.toFixed(2)} (${meets(ratio <= TARGET_SCALE)})` +
        `${e.errors + s.errors ? `   errors ${e.errors}/${s.errors}` : ''}`);
    }
    await service.stop();
  } finally {
    await scratch.drop();
  }
}

if (SCALE) {
  await measureScale();
  process.exit(0);
}

// The ceiling reads the same PostgreSQL server, in a scratch database of its own.
const ceilingDb = SERVER ? await scratchDatabase(`bench_ceiling_${process.pid}`) : null;
const ceiling = await startCeiling(ceilingDb?.url);
console.log(
  ceiling.withDb
    ? `ceiling: ${CEILING_SCRIPT} with one indexed read per request (GET /ping-db, POST /poll-db) in bench_ceiling_${process.pid} on the same server`
    : `ceiling: ${CEILING_SCRIPT} without a database: the embedded database has no pg ceiling, so the service is held against the bare routes GET /ping and POST /poll (no read)`,
);
try {
  if (JOURNAL === 'ab') {
    await compareJournal();
  } else if (JOURNAL !== 'both') {
    await measure(JOURNAL, ceiling);
  } else {
    await measure('on', ceiling);
    await compareJournal();
  }
} finally {
  await ceiling.stop();
  await ceilingDb?.drop();
}
process.exit(0);
