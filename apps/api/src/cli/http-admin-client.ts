import type { ClockResponseDto, SeedResultDto, UserListDto, UserResponseDto } from '@app/sandbox';
import type { AccountDto } from '@app/savings';
import { type AdminClient, AdminRequestFailed, describeFixture, type ProgressReporter } from './admin-client';

/** The admin API of a running sandbox (--url), with the admin key as bearer token. */
export class HttpAdminClient implements AdminClient {
  readonly target: string;

  constructor(
    private readonly baseUrl: string,
    private readonly adminKey: string,
  ) {
    this.target = baseUrl;
  }

  readClock(): Promise<ClockResponseDto> {
    return this.call<ClockResponseDto>('GET', '/admin/clock');
  }

  setClock(body: { now: string; frozen: boolean }): Promise<ClockResponseDto> {
    return this.call<ClockResponseDto>('PUT', '/admin/clock', body);
  }

  advanceClock(body: { seconds: number }): Promise<ClockResponseDto> {
    return this.call<ClockResponseDto>('POST', '/admin/clock/advance', body);
  }

  resetClock(): Promise<ClockResponseDto> {
    return this.call<ClockResponseDto>('DELETE', '/admin/clock');
  }

  listUsers(query: { limit?: string; after?: string }): Promise<UserListDto> {
    const search = new URLSearchParams();
    if (query.limit !== undefined) search.set('limit', query.limit);
    if (query.after !== undefined) search.set('after', query.after);
    return this.call<UserListDto>('GET', `/admin/users${search.size > 0 ? `?${search.toString()}` : ''}`);
  }

  getUser(personalNumber: string): Promise<UserResponseDto> {
    return this.call<UserResponseDto>('GET', `/admin/users/${encodeURIComponent(personalNumber)}`);
  }

  async putUser(personalNumber: string, body: Record<string, unknown>): Promise<{ user: UserResponseDto; created: boolean }> {
    const { body: user, status } = await this.send<UserResponseDto>('PUT', `/admin/users/${encodeURIComponent(personalNumber)}`, body);
    return { user, created: status === 201 };
  }

  openAccount(personalNumber: string, body: Record<string, unknown>): Promise<AccountDto> {
    return this.call<AccountDto>('POST', `/admin/users/${encodeURIComponent(personalNumber)}/accounts`, body);
  }

  /** One request: the sandbox reports no progress, so the reporter hears what is posted, then the answer comes. */
  seed(fixture: unknown, progress: ProgressReporter): Promise<SeedResultDto> {
    progress.note(`Posting ${describeFixture(fixture)} to ${this.baseUrl}…`);
    return this.call<SeedResultDto>('POST', '/admin/seed', fixture);
  }

  async close(): Promise<void> {}

  private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    return (await this.send<T>(method, path, body)).body;
  }

  private async send<T>(method: string, path: string, body?: unknown): Promise<{ body: T; status: number }> {
    let response: Response;
    try {
      response = await fetch(new URL(path, this.baseUrl), {
        method,
        headers: { authorization: `Bearer ${this.adminKey}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      throw new AdminRequestFailed(0, 'UNREACHABLE', `Cannot reach the sandbox at ${this.baseUrl}: ${cause?.code ?? cause?.message ?? (error as Error).message}. Is it running?`);
    }
    const answer: unknown = await response.json().catch(() => null);
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
