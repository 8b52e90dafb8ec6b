import type { INestApplicationContext, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import {
  DataDirLocked,
  DEFAULT_SANDBOX_ID,
  DomainError,
  parseSandboxId,
  PersonalNumberReader,
  SandboxConfig,
  SandboxContext,
  SandboxRegistry,
  StrictValidationPipe,
  toProblem,
  UnknownSandbox,
} from '@app/common';
import {
  AdminClockService,
  AdminUsersService,
  AdvanceClockDto,
  type ClockResponseDto,
  IssueCertificateDto,
  type IssuedCertificateDto,
  JournalQueryDto,
  type JournalPageDto,
  JournalService,
  ListUsersQueryDto,
  OpenAccountDto,
  PutUserDto,
  CreateSandboxDto,
  ListSandboxesQueryDto,
  type SandboxCreatedDto,
  type SandboxDto,
  SandboxCertificatesService,
  SandboxesService,
  type SandboxListDto,
  SeedFixtureDto,
  type SeedResultDto,
  SeedService,
  SetClockDto,
  type UserListDto,
  type UserResponseDto,
} from '@app/sandbox';
import type { AccountDto } from '@app/savings';
import { AppModule } from '../app.module';
import { type AdminClient, AdminRequestFailed, describeFixture, type JournalQuery, type ProgressReporter } from './admin-client';
import type { CliIo } from './cli-io';

/**
 * The database of the environment (DATABASE_URL, else the embedded database under DATA_DIR), through
 * the services the /admin routes call, after the same validation. Opened at the first call that
 * needs it, so input refused by validation never opens it. No jobs run and the default sandbox's
 * demo set is not seeded (the service does that when it starts). The /admin use cases run in the
 * context of `sandboxId` (contract §13), as a request under its prefix would; the lifecycle ones in
 * the default sandbox's, as their routes at the root do.
 */
export class DatabaseAdminClient implements AdminClient {
  readonly target: string;
  private app: INestApplicationContext | null = null;
  private sandboxFound = false;

  constructor(
    private readonly io: CliIo,
    readonly sandboxId: string = DEFAULT_SANDBOX_ID,
  ) {
    const database = io.env.DATABASE_URL ? 'the database at DATABASE_URL' : `the embedded database in ${io.env.DATA_DIR || './.data'}`;
    this.target = sandboxId === DEFAULT_SANDBOX_ID ? database : `sandbox ${sandboxId} in ${database}`;
  }

  readClock(): Promise<ClockResponseDto> {
    return this.use(AdminClockService, (clock) => clock.read());
  }

  async setClock(body: { now: string; frozen: boolean }): Promise<ClockResponseDto> {
    const dto = await validBody(SetClockDto, body);
    return this.use(AdminClockService, (clock) => clock.set(dto.now, dto.frozen ?? false));
  }

  async advanceClock(body: { seconds: number }): Promise<ClockResponseDto> {
    const dto = await validBody(AdvanceClockDto, body);
    return this.use(AdminClockService, (clock) => clock.advance(dto.seconds));
  }

  resetClock(): Promise<ClockResponseDto> {
    return this.use(AdminClockService, (clock) => clock.reset());
  }

  async listUsers(query: { limit?: string; after?: string }): Promise<UserListDto> {
    const dto = await valid(ListUsersQueryDto, query, 'query');
    return this.use(AdminUsersService, (users) => users.list(dto));
  }

  getUser(personalNumber: string): Promise<UserResponseDto> {
    return this.use(AdminUsersService, async (users) => users.get(await this.personalNumber(personalNumber)));
  }

  async putUser(personalNumber: string, body: Record<string, unknown>): Promise<{ user: UserResponseDto; created: boolean }> {
    const dto = await validBody(PutUserDto, body);
    return this.use(AdminUsersService, async (users) => users.put(await this.personalNumber(personalNumber), dto));
  }

  async openAccount(personalNumber: string, body: Record<string, unknown>): Promise<AccountDto> {
    const dto = await validBody(OpenAccountDto, body);
    return this.use(AdminUsersService, async (users) => users.openAccount(await this.personalNumber(personalNumber), dto));
  }

  async seed(fixture: unknown, progress: ProgressReporter): Promise<SeedResultDto> {
    const dto = await validBody(SeedFixtureDto, fixture);
    progress.note(`Loading ${describeFixture(fixture)} into ${this.target}…`);
    return this.use(SeedService, (seed) => seed.load(dto, (step) => progress.step(step)));
  }

  /** The journal as stored: entries the service has written (it buffers them up to a second, contract §14). */
  async listRequests(query: JournalQuery): Promise<JournalPageDto> {
    const dto = await valid(JournalQueryDto, query, 'query');
    return this.use(JournalService, (journal) => journal.page(dto));
  }

  async issueCertificate(body: Record<string, unknown>): Promise<IssuedCertificateDto> {
    const dto = await validBody(IssueCertificateDto, body);
    return this.use(SandboxCertificatesService, (certificates) => certificates.issue(dto));
  }

  async createSandbox(body: Record<string, unknown>): Promise<SandboxCreatedDto> {
    const dto = await validBody(CreateSandboxDto, body);
    return this.useLifecycle((sandboxes, origin) => sandboxes.create(dto, origin));
  }

  async listSandboxes(query: { limit?: string; after?: string }): Promise<SandboxListDto> {
    const dto = await valid(ListSandboxesQueryDto, query, 'query');
    return this.useLifecycle((sandboxes, origin) => sandboxes.list(dto, origin));
  }

  showSandbox(sandboxId: string): Promise<SandboxDto> {
    return this.useLifecycle((sandboxes, origin) => sandboxes.show(parseSandboxId(sandboxId), origin));
  }

  async resetSandbox(sandboxId: string): Promise<SandboxDto> {
    const reset = await this.useLifecycle((sandboxes, origin) => sandboxes.reset(parseSandboxId(sandboxId), origin));
    // This process seeds no demo set (SEED_DEMO is off here): the service seeds it when it next starts.
    if (reset.sandbox_id === DEFAULT_SANDBOX_ID) this.io.err("The default sandbox's demo set (SEED_DEMO) is seeded when the service next starts.\n");
    return reset;
  }

  deleteSandbox(sandboxId: string): Promise<void> {
    return this.useLifecycle((sandboxes) => sandboxes.delete(parseSandboxId(sandboxId)));
  }

  async close(): Promise<void> {
    await this.app?.close();
    this.app = null;
  }

  private async personalNumber(text: string) {
    return (await this.context()).get(PersonalNumberReader).read(text);
  }

  /**
   * Runs a use case of `service` in this client's sandbox; its failures become the refusal the route
   * would answer. An unknown sandbox is the 404 its prefix answers (contract §13), before anything runs.
   */
  private async use<S, T>(service: Type<S>, work: (instance: S) => Promise<T>): Promise<T> {
    const app = await this.context();
    try {
      if (!this.sandboxFound && this.sandboxId !== DEFAULT_SANDBOX_ID && !(await app.get(SandboxRegistry).exists(this.sandboxId))) {
        throw new UnknownSandbox(this.sandboxId);
      }
      this.sandboxFound = true;
      return await SandboxContext.run(this.sandboxId, () => work(app.get(service)));
    } catch (error) {
      throw refusal(error);
    }
  }

  /**
   * A lifecycle use case (contract §13), in the default sandbox's context as its routes at the root.
   * `base_url` has no request host here: it names this machine's PORT.
   */
  private async useLifecycle<T>(work: (sandboxes: SandboxesService, origin: string) => Promise<T>): Promise<T> {
    const app = await this.context();
    try {
      const origin = `http://localhost:${app.get(SandboxConfig).port}`;
      return await SandboxContext.run(DEFAULT_SANDBOX_ID, () => work(app.get(SandboxesService), origin));
    } catch (error) {
      throw refusal(error);
    }
  }

  private async context(): Promise<INestApplicationContext> {
    if (this.app) return this.app;
    const env = { ...this.io.env, SEED_DEMO: 'off', JOBS_INTERVAL_MS: '0', LOG_LEVEL: this.io.env.LOG_LEVEL ?? 'warn' };
    // Log lines go to stderr: stdout is the command's answer.
    const logDestination = { write: (line: string) => this.io.err(line) };
    try {
      // No Nest console logger: a failure to open is reported below in one line, not as a stack trace.
      this.app = await NestFactory.createApplicationContext(AppModule.forRoot({ env, logDestination }), { logger: false, abortOnError: false });
    } catch (error) {
      if (findCause(error, DataDirLocked)) {
        throw new AdminRequestFailed(
          503,
          'DATA_DIR_LOCKED',
          `${findCause(error, DataDirLocked)!.message} Is the sandbox running on it? Then use --url http://localhost:3000 (with --admin-key or ADMIN_API_KEY), or stop it first.`,
        );
      }
      throw new AdminRequestFailed(503, 'DATABASE_UNAVAILABLE', `Cannot open ${this.target}: ${(error as Error).message}`);
    }
    return this.app;
  }
}

/** The body as the route's validation pipe reads it; bad input is a 400 naming the field. */
function validBody<T>(metatype: Type<T>, value: unknown): Promise<T> {
  return valid(metatype, value, 'body');
}

async function valid<T>(metatype: Type<T>, value: unknown, type: 'body' | 'query'): Promise<T> {
  try {
    return (await new StrictValidationPipe().transform(value, { type, metatype })) as T;
  } catch (error) {
    throw refusal(error);
  }
}

/** A service's failure as the refusal its route would answer (an unexpected one keeps its message: this is the operator's own machine). */
function refusal(error: unknown): Error {
  if (error instanceof AdminRequestFailed) return error;
  const problem = toProblem(error);
  if (error instanceof DomainError || problem.status < 500) return new AdminRequestFailed(problem.status, problem.code, `${problem.code}: ${problem.message}`);
  return error instanceof Error ? error : new Error(String(error));
}

function findCause<E extends Error>(error: unknown, type: abstract new (...args: never[]) => E): E | undefined {
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof type || (e as Error).name === type.name) return e as E;
  }
  return undefined;
}
