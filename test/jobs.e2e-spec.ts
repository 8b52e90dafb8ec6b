import { Injectable, Module, OnModuleInit } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { Clock, type DueWork, JobRegistry, JobRunner, SandboxConfig, type SandboxJob } from '@app/common';
import { expectProblem } from './support/problems';
import { describeOnServer } from './support/server-only';
import { ADMIN_KEY, closeApps, createTestApp, TestApp, twoInstances } from './support/test-app';
import type { TestDatabase } from './support/test-db';

/** The test jobs always have work due in the default sandbox, and nowhere else. */
const DUE_IN_DEFAULT: DueWork = { sql: `SELECT sandbox_id FROM sandbox_now WHERE sandbox_id = 'default'` };

/** Shared by every instance in this process: how many runs of the test job are in progress. */
const shared = { active: 0, maxActive: 0, runs: [] as Array<{ instance: string; sandboxNow: string }> };

/** A job that records each run and can be held open until the test releases it. */
@Injectable()
class RecordingJob implements SandboxJob, OnModuleInit {
  readonly name = 'test-recording';
  instance = '';
  hold: Promise<void> | null = null;
  started: Promise<void> = Promise.resolve();
  private markStarted: () => void = () => undefined;

  constructor(
    private readonly registry: JobRegistry,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    this.registry.register(this);
  }

  due(): DueWork {
    return DUE_IN_DEFAULT;
  }

  /** The next run waits for `release` and resolves `started` when it begins. */
  holdNextRun(): () => void {
    let release: () => void = () => undefined;
    this.hold = new Promise((resolve) => (release = resolve));
    this.started = new Promise((resolve) => (this.markStarted = resolve));
    return release;
  }

  async run(): Promise<void> {
    shared.active++;
    shared.maxActive = Math.max(shared.maxActive, shared.active);
    this.markStarted();
    try {
      if (this.hold) await this.hold;
      this.hold = null;
      shared.runs.push({ instance: this.instance, sandboxNow: this.clock.now().toISOString() });
    } finally {
      shared.active--;
    }
  }
}

@Injectable()
class FailingJob implements SandboxJob, OnModuleInit {
  readonly name = 'test-failing';
  constructor(private readonly registry: JobRegistry) {}
  onModuleInit(): void {
    this.registry.register(this);
  }
  run(): Promise<void> {
    return Promise.reject(new Error('job exploded'));
  }
  due(): DueWork {
    return DUE_IN_DEFAULT;
  }
}

@Module({ providers: [FailingJob, RecordingJob], exports: [RecordingJob] })
class TestJobsModule {}

/** Instances 'a' and 'b' with the test jobs on one database. */
async function recordingInstances(env?: Record<string, string>): Promise<[TestApp, TestApp]> {
  const [a, b] = await twoInstances({ imports: [TestJobsModule], env });
  a.get(RecordingJob).instance = 'a';
  b.get(RecordingJob).instance = 'b';
  return [a, b];
}

function reset(): void {
  shared.active = 0;
  shared.maxActive = 0;
  shared.runs = [];
}

describe('job runner (contract §6)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ imports: [TestJobsModule] });
    t.get(RecordingJob).instance = 'a';
  });
  afterAll(() => t.close());
  beforeEach(reset);

  it('POST /admin/jobs/run runs every registered job once and reports a failing one as 500 after running the rest (contract §6)', async () => {
    expectProblem(await t.admin.post('/admin/jobs/run'), 500, 'INTERNAL_ERROR');
    expect(t.logs.some((line) => JSON.stringify(line).includes('job exploded'))).toBe(true);
  });

  it('a scheduled pass runs every job whose lease is free, even after one failed (contract §6)', async () => {
    await t.get(JobRunner).tick();
    expect(shared.runs).toHaveLength(1);
  });

  it('runs jobs against the sandbox clock (contract §6)', async () => {
    await t.clock.freeze('2030-05-05T05:05:05Z');
    await t.get(JobRunner).tick();
    expect(shared.runs).toEqual([{ instance: 'a', sandboxNow: '2030-05-05T05:05:05.000Z' }]);
  });

  it('POST /sandboxes/{id}/admin/jobs/run runs the jobs of that sandbox only, on its own clock (contract §13 Time and jobs)', async () => {
    const created = await t.http
      .post('/sandboxes')
      .set('Authorization', `Bearer ${ADMIN_KEY}`)
      .send({ name: 'jobs of its own', seed_demo: false, clock: { now: '2031-01-01T00:00:00Z', frozen: true } })
      .expect(201);
    const body = created.body as { sandbox_id: string; admin_key: string };
    expectProblem(await t.http.post(`/sandboxes/${body.sandbox_id}/admin/jobs/run`).set('Authorization', `Bearer ${body.admin_key}`), 500, 'INTERNAL_ERROR');
    expect(shared.runs).toEqual([{ instance: 'a', sandboxNow: '2031-01-01T00:00:00.000Z' }]);
  });

  it('does not schedule with JOBS_INTERVAL_MS=0 (jobs run only on request)', () => {
    expect(t.get(SchedulerRegistry).getIntervals()).not.toContain('sandbox-jobs');
  });

  it('schedules one interval of JOBS_INTERVAL_MS otherwise (contract §6)', async () => {
    const scheduled = await createTestApp({ env: { JOBS_INTERVAL_MS: '60000' }, keepClock: true });
    try {
      expect(scheduled.get(SchedulerRegistry).getIntervals()).toEqual(['sandbox-jobs']);
    } finally {
      await scheduled.close();
    }
  });
});

describeOnServer('job claims across instances on one database (contract §6)', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => ([a, b] = await recordingInstances()));
  afterAll(() => closeApps(a, b));
  beforeEach(reset);

  it('a job claimed by one instance is skipped by the other instance\'s scheduled pass (contract §6)', async () => {
    const release = a.get(RecordingJob).holdNextRun();
    const passA = a.get(JobRunner).tick();
    await a.get(RecordingJob).started;
    await b.get(JobRunner).tick();
    release();
    await passA;
    expect(shared.runs.map((r) => r.instance)).toEqual(['a']);
    expect(shared.maxActive).toBe(1);
  });

  it('POST /admin/jobs/run waits for a claim held elsewhere instead of skipping (contract §6)', async () => {
    const release = a.get(RecordingJob).holdNextRun();
    const passA = a.get(JobRunner).tick();
    await a.get(RecordingJob).started;
    const runOnB = b.admin.post('/admin/jobs/run').then((res) => res);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(shared.runs).toEqual([]);
    release();
    await passA;
    const res = await runOnB;
    expect(res.status).toBe(500); // the failing test job, reported after the wait
    expect(shared.runs.map((r) => r.instance)).toEqual(['a', 'b']);
    expect(shared.maxActive).toBe(1);
  });

  it('many concurrent passes on two instances never run a job twice at once (contract §6)', async () => {
    await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).get(JobRunner).tick()));
    expect(shared.maxActive).toBe(1);
    expect(shared.runs.length).toBeGreaterThanOrEqual(1);
  });
});

/** Starts test/support/lease-holder.mjs, resolves once it holds the leases; the caller kills it. */
async function leaseHolder(args: string[]): Promise<ChildProcess> {
  const child = spawn(process.execPath, [join(process.cwd(), 'test/support/lease-holder.mjs'), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  await new Promise<void>((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => chunk.includes('claimed') && resolve());
    child.on('exit', (code) => reject(new Error(`lease holder exited with ${code}: ${stderr}`)));
  });
  return child;
}

async function killHard(child: ChildProcess): Promise<void> {
  const exited = once(child, 'exit');
  child.kill('SIGKILL');
  const [, signal] = await exited;
  expect(signal).toBe('SIGKILL');
}

/**
 * The old 60 s lease made POST /admin/jobs/run wait 43–57 s after a crash; these tests must end
 * before that, starting processes on a busy machine included.
 */
const RECOVERY_TIMEOUT_MS = 40_000;

describe('job-lease recovery after a crash, embedded database (contract §6)', () => {
  let dataDir: string;
  let db: TestDatabase;
  let jobs: string[];
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'sandbox-leases-'));
    db = { env: { DATABASE_URL: '', DATA_DIR: dataDir }, onServer: false, drop: () => Promise.resolve() };
    // A first service process creates the schema in the data folder and stops.
    const first = await createTestApp({ db });
    jobs = first.get(JobRegistry).all().map((job) => job.name);
    await first.close();
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it(
    'leases left by a process killed with SIGKILL are broken at start: POST /admin/jobs/run answers at once (contract §6)',
    async () => {
      // A process takes every job's lease (for an hour) and is killed while holding them, leaving its
      // pid file and its leases behind.
      await killHard(await leaseHolder(['embedded', dataDir, '3600000', ...jobs]));

      const next = await createTestApp({ db, keepClock: true });
      try {
        const held = await next.get(DataSource).query('SELECT name FROM job_lease WHERE holder IS NOT NULL');
        expect(held).toEqual([]);
        await next.admin.post('/admin/jobs/run').expect(200);
      } finally {
        await next.close();
      }
    },
    RECOVERY_TIMEOUT_MS,
  );
});

describeOnServer('job-lease recovery after a crash, PostgreSQL server (contract §6)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it(
    'a process killed with SIGKILL holding every job\'s lease is overtaken within seconds: the lease runs ~10 s, POST /admin/jobs/run succeeds (contract §6)',
    async () => {
      const leaseMs = t.get(SandboxConfig).jobLeaseMs;
      expect(leaseMs).toBeLessThanOrEqual(10_000);
      const jobs = t.get(JobRegistry).all().map((job) => job.name);
      const child = await leaseHolder(['server', t.db.env.DATABASE_URL, String(leaseMs), ...jobs]);
      const [{ left }] = await t.get(DataSource).query(
        `SELECT max(extract(epoch FROM leased_until - clock_timestamp())) AS left FROM job_lease WHERE holder IS NOT NULL`,
      );
      expect(Number(left)).toBeGreaterThan(0);
      expect(Number(left)).toBeLessThanOrEqual(10.5);
      await killHard(child);
      await t.admin.post('/admin/jobs/run').expect(200);
    },
    RECOVERY_TIMEOUT_MS,
  );
});

describeOnServer('job leases are renewed while the job runs (contract §6)', () => {
  // Short leases so the test outlives one in little real time: leases are real (database) time.
  const env = { JOB_LEASE_MS: '1000', JOB_LEASE_RENEW_MS: '200' };
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => ([a, b] = await recordingInstances(env)));
  afterAll(() => closeApps(a, b));
  beforeEach(reset);

  it('a run longer than its lease keeps it: another instance\'s pass skips the job (contract §6)', async () => {
    const release = a.get(RecordingJob).holdNextRun();
    const passA = a.get(JobRunner).tick();
    await a.get(RecordingJob).started;
    await new Promise((resolve) => setTimeout(resolve, 1500)); // longer than the 1 s lease
    const [{ held }] = await a.get(DataSource).query(
      `SELECT leased_until > clock_timestamp() AS held FROM job_lease WHERE name = 'test-recording'`,
    );
    expect(held).toBe(true);
    await b.get(JobRunner).tick();
    release();
    await passA;
    expect(shared.runs.map((r) => r.instance)).toEqual(['a']);
    expect(shared.maxActive).toBe(1);
  });
});
