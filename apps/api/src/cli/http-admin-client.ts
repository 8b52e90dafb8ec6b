import { DEFAULT_SANDBOX_ID } from '@app/common';
import type { ClockResponseDto, IssuedCertificateDto, JournalPageDto, SandboxCreatedDto, SandboxDto, SandboxListDto, SeedResultDto, UserListDto, UserResponseDto } from '@app/sandbox';
import type { AccountDto } from '@app/savings';
import { type AdminClient, AdminRequestFailed, describeFixture, type JournalQuery, type ProgressReporter } from './admin-client';

/**
 * The API of a running service (--url), with the admin key as bearer token: the /admin routes of
 * one sandbox (under its prefix /sandboxes/{id}, or at the root for the default sandbox) and the
 * lifecycle routes, which are at the root (contract §13).
 */
export class HttpAdminClient implements AdminClient {
  readonly target: string;
  /** Where this sandbox's /admin routes are: '' at the root for the default sandbox. */
  private readonly prefix: string;

  constructor(
    /** The service's origin and any path it is served under, without a trailing slash. */
    private readonly baseUrl: string,
    private readonly adminKey: string,
    readonly sandboxId: string = DEFAULT_SANDBOX_ID,
  ) {
    this.prefix = sandboxId === DEFAULT_SANDBOX_ID ? '' : `/sandboxes/${sandboxId}`;
    this.target = `${baseUrl}${this.prefix}`;
  }

  readClock(): Promise<ClockResponseDto> {
    return this.call<ClockResponseDto>('GET', `${this.prefix}/admin/clock`);
  }

  setClock(body: { now: string; frozen: boolean }): Promise<ClockResponseDto> {
    return this.call<ClockResponseDto>('PUT', `${this.prefix}/admin/clock`, body);
  }

  advanceClock(body: { seconds: number }): Promise<ClockResponseDto> {
    return this.call<ClockResponseDto>('POST', `${this.prefix}/admin/clock/advance`, body);
  }

  resetClock(): Promise<ClockResponseDto> {
    return this.call<ClockResponseDto>('DELETE', `${this.prefix}/admin/clock`);
  }

  listUsers(query: { limit?: string; after?: string }): Promise<UserListDto> {
    return this.call<UserListDto>('GET', `${this.prefix}/admin/users${queryString(query)}`);
  }

  getUser(personalNumber: string): Promise<UserResponseDto> {
    return this.call<UserResponseDto>('GET', `${this.prefix}/admin/users/${encodeURIComponent(personalNumber)}`);
  }

  async putUser(personalNumber: string, body: Record<string, unknown>): Promise<{ user: UserResponseDto; created: boolean }> {
    const { body: user, status } = await this.send<UserResponseDto>('PUT', `${this.prefix}/admin/users/${encodeURIComponent(personalNumber)}`, body);
    return { user, created: status === 201 };
  }

  openAccount(personalNumber: string, body: Record<string, unknown>): Promise<AccountDto> {
    return this.call<AccountDto>('POST', `${this.prefix}/admin/users/${encodeURIComponent(personalNumber)}/accounts`, body);
  }

  /** One request: the sandbox reports no progress, so the reporter hears what is posted, then the answer comes. */
  seed(fixture: unknown, progress: ProgressReporter): Promise<SeedResultDto> {
    progress.note(`Posting ${describeFixture(fixture)} to ${this.target}…`);
    return this.call<SeedResultDto>('POST', `${this.prefix}/admin/seed`, fixture);
  }

  listRequests(query: JournalQuery): Promise<JournalPageDto> {
    return this.call<JournalPageDto>('GET', `${this.prefix}/admin/requests${queryString(query)}`);
  }

  issueCertificate(body: Record<string, unknown>): Promise<IssuedCertificateDto> {
    return this.call<IssuedCertificateDto>('POST', `${this.prefix}/sandbox/certificates`, body);
  }

  createSandbox(body: Record<string, unknown>): Promise<SandboxCreatedDto> {
    return this.call<SandboxCreatedDto>('POST', '/sandboxes', body);
  }

  listSandboxes(query: { limit?: string; after?: string }): Promise<SandboxListDto> {
    return this.call<SandboxListDto>('GET', `/sandboxes${queryString(query)}`);
  }

  showSandbox(sandboxId: string): Promise<SandboxDto> {
    return this.call<SandboxDto>('GET', `/sandboxes/${encodeURIComponent(sandboxId)}`);
  }

  resetSandbox(sandboxId: string): Promise<SandboxDto> {
    return this.call<SandboxDto>('POST', `/sandboxes/${encodeURIComponent(sandboxId)}/reset`);
  }

  async deleteSandbox(sandboxId: string): Promise<void> {
    await this.send('DELETE', `/sandboxes/${encodeURIComponent(sandboxId)}`);
  }

  async close(): Promise<void> {}

  private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    return (await this.send<T>(method, path, body)).body;
  }

  private async send<T>(method: string, path: string, body?: unknown): Promise<{ body: T; status: number }> {
    let response: Response;
    try {
      response = await fetch(`${this.baseUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${this.adminKey}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      throw new AdminRequestFailed(0, 'UNREACHABLE', `Cannot reach the sandbox at ${this.baseUrl}: ${cause?.code ?? cause?.message ?? (error as Error).message}. Is it running?`);
    }
    // 204 (a deletion) has no body.
    const answer: unknown = response.status === 204 ? null : await response.json().catch(() => null);
    if (!response.ok) {
      const reason = (answer as { reason?: { code?: string; message?: string } } | null)?.reason;
      throw new AdminRequestFailed(
        response.status,
        reason?.code ?? 'HTTP_ERROR',
        `${method} ${path} answered ${response.status}${reason?.code ? ` ${reason.code}` : ''}: ${reason?.message ?? JSON.stringify(answer)}`,
      );
    }
    return { body: answer as T, status: response.status };
  }
}

/** `?limit=…&after=…` of the values given (every property a string or absent), or ''. */
function queryString(query: { limit?: string; after?: string } | JournalQuery): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query) as Array<[string, string | undefined]>) if (value !== undefined) search.set(name, value);
  return search.size > 0 ? `?${search.toString()}` : '';
}
