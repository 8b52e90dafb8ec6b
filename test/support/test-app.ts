import type { DynamicModule, INestApplication, Type } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { configureHttp, DEFAULT_SANDBOX_ID, OpenApiDocument, SandboxClock, SandboxContext } from '@app/common';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { AppModule } from '../../apps/api/src/app.module';
import { listenTls, type TlsListener } from '../../apps/api/src/strict-mode/tls-listener';
import { OpenApiResponseValidator, validatingAgent } from './openapi-responses';
import { useMemoryTemplates } from './memory-templates';
import { freshDatabase, TestDatabase } from './test-db';

useMemoryTemplates();

export const ADMIN_KEY = 'test-admin-key-0123456789abcdef';

/**
 * The sandbox clock every test file starts from: a Tuesday morning outside every planned downtime
 * window of bank §8 (today, 2026-11-22 04:00–07:45 Stockholm, is inside one).
 */
export const BASE_TIME = '2026-11-24T10:00:00+01:00';

/** The environment of every test app, before a test's own overrides. */
const TEST_ENV: Record<string, string> = {
  ADMIN_API_KEY: ADMIN_KEY,
  SEED_DEMO: 'off',
  JOBS_INTERVAL_MS: '0',
  LOG_LEVEL: 'info',
  DOWNTIME_CALENDAR: 'on',
};

/**
 * Every log line written in this test file. nestjs-pino keeps one pino-http instance per process (the
 * first app's, with its level), and Nest's Logger routes to the last app's logger: with several apps
 * in one file their lines cannot be told apart by app, so they are collected per file (jest gives each
 * file its own module registry). Production runs one app per process.
 */
const fileLogs: Array<Record<string, unknown>> = [];
const fileLogDestination = new Writable({
  write(chunk, _encoding, done) {
    for (const line of String(chunk).split('\n').filter(Boolean)) fileLogs.push(JSON.parse(line));
    done();
  },
});

export interface TestApp {
  app: INestApplication;
  /** supertest agent on the app's HTTP server; every response is checked against the OpenAPI document (issue 13). */
  http: ReturnType<typeof request>;
  db: TestDatabase;
  /** Every log line written in this test file, parsed (see fileLogs). */
  logs: Array<Record<string, unknown>>;
  /** An admin request with the test key. */
  admin: AdminClient;
  /** The sandbox clock, moved through its admin routes (contract §6). */
  clock: TestClock;
  get<T>(token: new (...args: never[]) => T): T;
  /** Listens on 127.0.0.1 at a free port, for clients outside the process (a browser, curl); the base URL. */
  listen(): Promise<string>;
  /**
   * Strict mode (contract §16): the plain port as listen() does, and the HTTPS listener main.ts opens
   * for TLS_PORT beside it, at another free port; the HTTPS base URL.
   */
  listenTls(): Promise<string>;
  close(): Promise<void>;
}

export type AdminClient = ReturnType<typeof adminClient>;

/** The body of every /admin/clock answer (contract §6). */
export interface ClockState {
  now: string;
  frozen: boolean;
}

/** The sandbox clock through the admin API (not the service), so every move exercises the real route. */
export interface TestClock {
  /** GET /admin/clock. */
  read(): Promise<ClockState>;
  /** The sandbox's now, ISO 8601 in UTC. */
  now(): Promise<string>;
  /** PUT /admin/clock; without `frozen` the body leaves it out (a running clock). */
  set(now: string, frozen?: boolean): Promise<ClockState>;
  /** Frozen at `at`, by default at the app's frozenAt (BASE_TIME without one): a test's fresh start. */
  freeze(at?: string): Promise<ClockState>;
  /** POST /admin/clock/advance. */
  advance(seconds: number): Promise<ClockState>;
}

export interface TestAppOptions {
  env?: Record<string, string>;
  /** Share a database with another app (two instances on one server database). */
  db?: TestDatabase;
  /** Leave the clock alone (default: pinned to BASE_TIME, running). */
  keepClock?: boolean;
  /** Pin the clock frozen at this instant instead; `t.clock.freeze()` returns to it. */
  frozenAt?: string;
  /** Test-only modules mounted beside AppModule (e.g. a controller that throws). */
  imports?: Array<Type<unknown> | DynamicModule>;
}

/** Builds the whole AppModule on a fresh database, configured exactly as main.ts does. */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const db = options.db ?? (await freshDatabase());
  const env = { ...TEST_ENV, ...db.env, ...options.env };
  const moduleRef = await Test.createTestingModule({
    imports: [AppModule.forRoot({ env, logDestination: fileLogDestination }), ...(options.imports ?? [])],
  }).compile();
  const app = moduleRef.createNestApplication({ bodyParser: false, bufferLogs: true });
  configureHttp(app);
  try {
    await app.init();
  } catch (error) {
    // A start that fails (e.g. a boot check) leaves no connection or database behind.
    await app.close().catch(() => undefined);
    if (!options.db) await db.drop();
    throw error;
  }
  let tls: TlsListener | undefined;
  let validator: OpenApiResponseValidator | undefined;
  const http = validatingAgent(request(app.getHttpServer()), () => {
    validator ??= new OpenApiResponseValidator(app.get(OpenApiDocument).get());
    return validator;
  });
  const admin = adminClient(http);
  const testApp: TestApp = {
    app,
    http,
    db,
    logs: fileLogs,
    admin,
    clock: testClock(admin, options.frozenAt ?? BASE_TIME),
    get: (token) => asDefaultSandbox(app.get(token)),
    listen: async () => {
      if (!app.getHttpServer().listening) await app.listen(0, '127.0.0.1');
      const { port } = app.getHttpServer().address() as AddressInfo;
      return `http://127.0.0.1:${port}`;
    },
    listenTls: async () => {
      await testApp.listen();
      tls ??= await listenTls(app, 0, '127.0.0.1');
      return `https://127.0.0.1:${tls.port}`;
    },
    close: async () => {
      await tls?.close();
      await app.close();
      if (!options.db) await db.drop();
    },
  };
  if (!options.keepClock) await asDefaultSandbox(app.get(SandboxClock)).set(new Date(options.frozenAt ?? BASE_TIME), options.frozenAt !== undefined);
  return testApp;
}

/**
 * A provider whose methods run in the default sandbox's context unless the test entered one: a
 * test that calls a service directly acts as the default sandbox, as a request to the root paths
 * would (contract §13).
 */
function asDefaultSandbox<T>(instance: T): T {
  return inSandboxContext(instance, DEFAULT_SANDBOX_ID);
}

/** A provider whose methods run in the given sandbox's context unless the test entered one. */
export function inSandboxContext<T>(instance: T, sandboxId: string): T {
  if (typeof instance !== 'object' || instance === null) return instance;
  return new Proxy(instance, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      const method = value as (...a: unknown[]) => unknown;
      // A test that entered a sandbox itself (SandboxContext.run) keeps it.
      return (...args: unknown[]) => (SandboxContext.active ? method.apply(target, args) : SandboxContext.run(sandboxId, () => method.apply(target, args)));
    },
  });
}

/**
 * Two instances of the app on one database (several replicas, contract §1): the second keeps the
 * clock the first set. Close them with closeApps(a, b).
 */
export async function twoInstances(options: TestAppOptions = {}): Promise<[TestApp, TestApp]> {
  const a = await createTestApp(options);
  const b = await createTestApp({ ...options, db: a.db, keepClock: true });
  return [a, b];
}

/** Closes the apps last first: the first owns the database the others share. */
export async function closeApps(...apps: TestApp[]): Promise<void> {
  for (const app of apps.reverse()) await app.close();
}

export function testClock(admin: AdminClient, frozenAt: string): TestClock {
  const body = async (answer: ReturnType<AdminClient['get']>): Promise<ClockState> => (await answer.expect(200)).body;
  const clock: TestClock = {
    read: () => body(admin.get('/admin/clock')),
    now: async () => (await clock.read()).now,
    set: (now, frozen) => body(admin.put('/admin/clock', frozen === undefined ? { now } : { now, frozen })),
    freeze: (at = frozenAt) => clock.set(at, true),
    advance: (seconds) => body(admin.post('/admin/clock/advance', { seconds })),
  };
  return clock;
}

/** Admin requests with a key: the operator's (ADMIN_API_KEY) unless another is given (a sandbox's own, contract §13). */
export function adminClient(http: ReturnType<typeof request>, key = ADMIN_KEY) {
  const auth = { Authorization: `Bearer ${key}` };
  return {
    get: (path: string) => http.get(path).set(auth),
    put: (path: string, body?: object) => http.put(path).set(auth).send(body),
    post: (path: string, body?: object) => http.post(path).set(auth).send(body),
    delete: (path: string) => http.delete(path).set(auth),
  };
}

/**
 * Every SQL text the app sends from now on, in order: TypeORM hands each statement to its logger,
 * whoever built it (SandboxDb, TypeORM or a raw query). Clear the array to start a new count.
 */
export function recordStatements(t: TestApp): string[] {
  const statements: string[] = [];
  const { logger } = t.get(DataSource);
  const logQuery = logger.logQuery.bind(logger);
  logger.logQuery = (query, parameters, runner) => {
    statements.push(query);
    logQuery(query, parameters, runner);
  };
  return statements;
}
