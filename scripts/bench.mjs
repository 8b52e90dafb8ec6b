#!/usr/bin/env node
// npm run bench: the hot paths of the built service under load (autocannon), each beside a bare
// route of the same app, on the embedded database (in memory) or the server named by DATABASE_URL.
// A script, not a timed test: read the numbers.
// usage: npm run bench -- [--seconds 10] [--connections 50] [--sandboxes N] [--journal both|on|off]
// --sandboxes N: N sandboxes exist (the default one and N-1 created through POST /sandboxes, contract
// §13) and every measured call goes to the last one created, under its /sandboxes/{id} prefix.
// --journal: the service runs with the request journal on (JOURNAL=on, contract §14) or off; both
// (the default) measures every path with it on, then starts the service again with it off for the
// AIS read and the status poll and prints the difference the journal makes to their throughput.
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import { createServer } from 'node:net';

const args = Object.fromEntries(process.argv.slice(2).reduce((pairs, arg, i, all) => (arg.startsWith('--') ? [...pairs, [arg.slice(2), all[i + 1]]] : pairs), []));
const SECONDS = Number(args.seconds ?? 10);
const CONNECTIONS = Number(args.connections ?? 50);
const SANDBOXES = Number(args.sandboxes ?? 1);
const JOURNAL = args.journal ?? 'both';
if (!['both', 'on', 'off'].includes(JOURNAL)) {
  console.error(`--journal must be both, on or off (got ${JOURNAL})`);
  process.exit(2);
}

const AIS_READ = 'GET /v2/accounts (bearer token, two accounts)';
const STATUS_POLL = 'POST /psd2/auth/3.0/status (PENDING order)';

/** Starts the built service with the journal on or off, prepares the measured sandbox and returns what a run needs. */
async function startService(journal) {
  const port = await new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
  const adminKey = randomBytes(16).toString('hex');
  const base = `http://127.0.0.1:${port}`;
  const service = spawn(process.execPath, [...(process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? []), 'dist/apps/api/src/main.js'], {
    env: { ...process.env, PORT: String(port), ADMIN_API_KEY: adminKey, DATA_DIR: 'memory://', SEED_DEMO: 'off', LOG_LEVEL: 'warn', JOBS_INTERVAL_MS: '0', JOURNAL: journal },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const killService = () => service.kill('SIGTERM');
  process.on('exit', killService);
  const stopped = new Promise((resolve) => service.on('exit', resolve));
  const stop = async () => {
    service.kill('SIGTERM');
    await stopped;
    process.removeListener('exit', killService);
  };

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

  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${base}/health`)).ok) break;
    } catch {
      /* not yet */
    }
    if (i > 240) throw new Error('the service did not become healthy');
    await new Promise((r) => setTimeout(r, 250));
  }

  const admin = { authorization: `Bearer ${adminKey}` };
  // The measured sandbox: the default one, or the last of SANDBOXES - 1 created (a few at a time).
  let prefix = '';
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
    prefix = `/sandboxes/${created.at(-1)}`;
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

  const paths = [
    [AIS_READ, { path: '/v2/accounts', method: 'GET', headers: { ...psd2, authorization: `Bearer ${access_token}` } }, null],
    [
      'POST /signing/1.0/collect (PENDING signing)',
      { path: '/signing/1.0/collect', method: 'POST', headers: { ...partnerHeaders, 'content-type': 'application/json' }, body: JSON.stringify({ participant_id: participantId }) },
      null,
    ],
    [STATUS_POLL, { path: '/psd2/auth/3.0/status', method: 'POST', headers: { ...psd2, 'content-type': 'application/json' }, body: JSON.stringify({ pending_code }) }, 0.5],
    [
      'POST /psd2/auth/1.0/token (non-authenticated)',
      { path: '/psd2/auth/1.0/token', method: 'POST', headers: { ...psd2, 'content-type': 'application/x-www-form-urlencoded' }, body: `grant_type=non_authenticated_token&user_id=${tokenUser}` },
      0.3,
    ],
  ];
  const transfer = {
    path: `/v3/accounts/${accounts[0]}/transfers`,
    method: 'POST',
    headers: { ...psd2, authorization: `Bearer ${access_token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ amount: 1, currency: 'SEK', transfer_date: '2026-11-30', recipient_account_number: '5050-1055', recipient_name: 'Bench' }),
  };
  return { base, prefix, paths, transfer, stop };
}

/**
 * Transfer creation without and with Idempotency-Key (contract §15): a fresh key per request costs
 * two statements (claim, complete); a retry with one key is one statement and runs nothing else (its
 * "errors" are the 409 IDEMPOTENCY_KEY_IN_USE of the requests sent while the first one ran).
 */
async function measureIdempotency(service) {
  const { transfer } = service;
  let keys = 0;
  const freshKey = { ...transfer, requests: [{ setupRequest: (req) => ({ ...req, headers: { ...req.headers, 'idempotency-key': `bench-${process.pid}-${keys++}` } }) }] };
  const replayedKey = { ...transfer, headers: { ...transfer.headers, 'idempotency-key': `bench-replayed-${process.pid}` } };
  await load(service, 'warm-up', transfer, 2);
  await load(service, 'warm-up', freshKey, 2);
  const without = await load(service, 'POST /v3/…/transfers, no Idempotency-Key', transfer);
  const fresh = await load(service, 'POST /v3/…/transfers, a new key each', freshKey);
  const replayed = await load(service, 'POST /v3/…/transfers, one key (replays)', replayedKey);
  for (const result of [without, fresh, replayed]) console.log(line(result));
  console.log(`${''.padEnd(46)} ratio new key ${(fresh.rps / without.rps).toFixed(2)}, replay ${(replayed.rps / without.rps).toFixed(2)}\n`);
}

async function load(service, title, request, duration = SECONDS) {
  const result = await autocannon({ url: `${service.base}${request.path === '/health' ? '' : service.prefix}${request.path}`, connections: CONNECTIONS, duration, ...request });
  const errors = result.non2xx + result.errors;
  return { title, rps: result.requests.average, p99: result.latency.p99, errors };
}

const line = (r) => `${r.title.padEnd(46)} ${r.rps.toFixed(0).padStart(7)} req/s   p99 ${String(r.p99).padStart(4)} ms   errors ${r.errors}`;
const bare = { path: '/health', method: 'GET' };

/** One service with the journal on or off: the paths named (all when absent), each beside GET /health. req/s and the ratio by title. */
async function measure(journal, only) {
  const service = await startService(journal);
  console.log(`journal ${journal}: ${SECONDS} s per run, ${CONNECTIONS} connections, ${process.env.DATABASE_URL ? 'PostgreSQL server' : 'embedded PostgreSQL (in memory)'}, ${SANDBOXES} sandbox(es)`);
  const rps = {};
  for (const [title, request, target] of service.paths.filter(([title]) => !only || only.includes(title))) {
    // Warm both paths first, so neither is measured while the JIT is still compiling it.
    await load(service, 'warm-up', bare, 2);
    await load(service, 'warm-up', request, 2);
    const baseline = await load(service, 'GET /health (bare route, one SELECT 1)', bare);
    const measured = await load(service, title, request);
    console.log(line(baseline));
    console.log(line(measured));
    console.log(`${''.padEnd(46)} ratio ${(measured.rps / baseline.rps).toFixed(2)}${target ? ` (target ≥ ${target})` : ''}\n`);
    rps[title] = { rps: measured.rps, ratio: measured.rps / baseline.rps };
  }
  if (!only) await measureIdempotency(service);
  await service.stop();
  return rps;
}

if (JOURNAL !== 'both') {
  await measure(JOURNAL);
} else {
  const on = await measure('on');
  const off = await measure('off', [AIS_READ, STATUS_POLL]);
  // The ratio to GET /health (never journaled) of the same service takes out some of the drift of a
  // busy machine between the two services; on a quiet machine both differences agree.
  const percent = (a, b) => `${a >= b ? '+' : ''}${(((a - b) / b) * 100).toFixed(1)} %`;
  console.log('The journal on against off (contract §14: recording must not slow the hot paths; target: less than 10 % slower):');
  for (const title of [AIS_READ, STATUS_POLL]) {
    console.log(
      `${title.padEnd(46)} on ${on[title].rps.toFixed(0).padStart(7)}   off ${off[title].rps.toFixed(0).padStart(7)} req/s   ${percent(on[title].rps, off[title].rps).padStart(8)}` +
        `   (ratio to /health ${on[title].ratio.toFixed(2)} against ${off[title].ratio.toFixed(2)}: ${percent(on[title].ratio, off[title].ratio)})`,
    );
  }
}
process.exit(0);
