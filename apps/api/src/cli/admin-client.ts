import type {
  ClockResponseDto,
  IssuedCertificateDto,
  JournalPageDto,
  SandboxCreatedDto,
  SandboxDto,
  SandboxListDto,
  SeedProgress,
  SeedResultDto,
  UserListDto,
  UserResponseDto,
} from '@app/sandbox';
import type { AccountDto } from '@app/savings';

/** Where a fixture load stands, and one-off notes (e.g. "posting 500 users…"); written to stderr. */
export interface ProgressReporter {
  step(progress: SeedProgress): void;
  note(text: string): void;
}

/**
 * The admin use cases the command line needs, with the request and response bodies of the /admin
 * routes (contract §6, §8) and of the sandbox lifecycle routes (§13). Two transports: the database
 * of the environment, through the same services those routes call (DatabaseAdminClient), or a
 * running service's API (HttpAdminClient). Every call validates its input the way the route does;
 * a refusal is an AdminRequestFailed. The /admin calls address one sandbox (`sandboxId`, the
 * default sandbox unless --sandbox names another); the lifecycle calls are the service's.
 */
export interface AdminClient {
  /** What the client talks to, for messages: "http://localhost:3000" or "the database (DATA_DIR ./.data)". */
  readonly target: string;
  /** The sandbox the /admin calls address: `default` or a UUID. */
  readonly sandboxId: string;
  readClock(): Promise<ClockResponseDto>;
  setClock(body: { now: string; frozen: boolean }): Promise<ClockResponseDto>;
  advanceClock(body: { seconds: number }): Promise<ClockResponseDto>;
  resetClock(): Promise<ClockResponseDto>;
  listUsers(query: { limit?: string; after?: string }): Promise<UserListDto>;
  getUser(personalNumber: string): Promise<UserResponseDto>;
  putUser(personalNumber: string, body: Record<string, unknown>): Promise<{ user: UserResponseDto; created: boolean }>;
  openAccount(personalNumber: string, body: Record<string, unknown>): Promise<AccountDto>;
  seed(fixture: unknown, progress: ProgressReporter): Promise<SeedResultDto>;
  /** A page of the sandbox's request journal (GET /admin/requests, contract §14), newest first. */
  listRequests(query: JournalQuery): Promise<JournalPageDto>;
  /** POST /sandbox/certificates (contract §16): a strict-mode client certificate of the sandbox CA, dated by this sandbox's clock. */
  issueCertificate(body: Record<string, unknown>): Promise<IssuedCertificateDto>;
  createSandbox(body: Record<string, unknown>): Promise<SandboxCreatedDto>;
  listSandboxes(query: { limit?: string; after?: string }): Promise<SandboxListDto>;
  showSandbox(sandboxId: string): Promise<SandboxDto>;
  resetSandbox(sandboxId: string): Promise<SandboxDto>;
  deleteSandbox(sandboxId: string): Promise<void>;
  close(): Promise<void>;
}

/** The filters of GET /admin/requests (contract §14) as query parameters; absent ones are left out. */
export interface JournalQuery {
  caller_kind?: string;
  caller_id?: string;
  status?: string;
  path_prefix?: string;
  hint?: string;
  since?: string;
  limit?: string;
  after?: string;
}

/** The sandbox refused a call (the status and `reason` of its problem body), or could not be reached. */
export class AdminRequestFailed extends Error {
  constructor(
    /** The HTTP status the route answers (or would answer); 0 when the sandbox could not be reached. */
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'AdminRequestFailed';
  }

  /** 2 for bad input (a 400: nothing was changed), 1 for everything else. */
  get exitCode(): number {
    return this.status === 400 ? 2 : 1;
  }
}

/** The command line was used wrongly (missing admin key, unreadable file, bad duration): exit code 2. */
export class CliUsageError extends Error {
  readonly exitCode = 2;
}

/** "500 user(s), 2 partner(s), 1 TPP setting(s)" for a fixture, whatever its shape. */
export function describeFixture(fixture: unknown): string {
  const count = (key: string) => {
    const items = (fixture as Record<string, unknown> | null)?.[key];
    return Array.isArray(items) ? items.length : 0;
  };
  return `${count('users')} user(s), ${count('partners')} partner(s), ${count('tpps')} TPP setting(s)`;
}
