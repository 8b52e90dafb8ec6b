#!/usr/bin/env node
// npm run bench: starts the built service on an in-memory embedded database (or DATABASE_URL) and
// measures the hot paths with concurrent clients. A script, not a timed test: read the numbers.
// usage: npm run bench -- [--seconds 5] [--concurrency 8]
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';

const args = Object.fromEntries(process.argv.slice(2).reduce((pairs, arg, i, all) => (arg.startsWith('--') ? [...pairs, [arg.slice(2), all[i + 1]]] : pairs), []));
const SECONDS = Number(args.seconds ?? 5);
const CONCURRENCY = Number(args.concurrency ?? 8);

const port = await new Promise((resolve) => {
  const server = createServer().listen(0, '127.0.0.1', () => {
    const { port } = server.address();
    server.close(() => resolve(port));
  });
});
const adminKey = randomBytes(16).toString('hex');
const base = `http://127.0.0.1:${port}`;
const service = spawn(process.execPath, ['dist/apps/api/src/main.js'], {
  env: { ...process.env, PORT: String(port), ADMIN_API_KEY: adminKey, DATA_DIR: 'memory://', SEED_DEMO: 'on', LOG_LEVEL: 'warn', JOBS_INTERVAL_MS: '0' },
  stdio: ['ignore', 'ignore', 'inherit'],
});
const stop = () => service.kill('SIGTERM');
process.on('exit', stop);

async function waitHealthy() {
  for (let i = 0; i < 240; i++) {
    try {
      if ((await fetch(`${base}/health`)).ok) return;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('the service did not become healthy');
}

async function measure(name, request) {
  const latencies = [];
  let errors = 0;
  const until = performance.now() + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < until) {
        const started = performance.now();
        const res = await request();
        await res.arrayBuffer();
        if (!res.ok) errors++;
        latencies.push(performance.now() - started);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))].toFixed(2);
  console.log(
    `${name.padEnd(34)} ${(latencies.length / SECONDS).toFixed(0).padStart(6)} req/s   p50 ${pct(50)} ms   p99 ${pct(99)} ms   errors ${errors}`,
  );
}

await waitHealthy();
const admin = { authorization: `Bearer ${adminKey}` };
console.log(`${SECONDS} s per path, ${CONCURRENCY} concurrent clients, ${process.env.DATABASE_URL ? 'PostgreSQL server' : 'embedded PostgreSQL (memory)'}`);
await measure('GET /health', () => fetch(`${base}/health`));
await measure('GET /admin/users/{pn} (auth read)', () => fetch(`${base}/admin/users/191212121212`, { headers: admin }));
await measure('GET /admin/clock', () => fetch(`${base}/admin/clock`, { headers: admin }));
stop();
