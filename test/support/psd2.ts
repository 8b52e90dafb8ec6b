import { randomInt } from 'node:crypto';
import { issueTestCertificate, type Psd2Role } from '@app/directory';
import { newPersonalNumber } from './personal-numbers';
import { BASE_TIME, createTestApp, type TestApp, type TestAppOptions } from './test-app';

export const PSU_IP = '192.0.2.10';

/** Base64 DER test certificate with exactly these roles, for a fresh (or the given) TPP. */
export async function certificate(roles: Psd2Role[] = ['PSP_AI', 'PSP_PI'], organizationId = newOrganizationId()): Promise<string> {
  const der = await issueTestCertificate({ roles, organizationId, now: new Date('2026-01-01T00:00:00Z') });
  return der.toString('base64');
}

export const newOrganizationId = () => `PSDSE-TEST-${String(randomInt(1e8)).padStart(8, '0')}`;

export interface UserOptions {
  /** A chosen personal number (default: a fresh one). */
  personalNumber?: string;
  name?: string;
  kyc?: boolean;
  eid?: string;
  /** credit_decision (contract §8). */
  credit?: string;
  /** busy_elsewhere (contract §4). */
  busy?: boolean;
  accounts?: number;
}

/** The app of the PSD2 flow tests, its clock frozen at BASE_TIME (`t.clock.freeze()` before each test), and one TPP. */
export async function psd2App(options: TestAppOptions = {}): Promise<{ t: TestApp; tpp: Psd2Client }> {
  const t = await createTestApp({ frozenAt: BASE_TIME, ...options });
  return { t, tpp: await Psd2Client.create(t) };
}

/** A sandbox user made through the admin API. */
export async function newUser(t: TestApp, options: UserOptions = {}): Promise<string> {
  const pn = options.personalNumber ?? newPersonalNumber();
  const body: Record<string, unknown> = { name: options.name ?? 'Test Testsson', kyc_completed: options.kyc ?? true };
  if (options.eid) body.eid_behaviour = options.eid;
  if (options.credit) body.credit_decision = options.credit;
  if (options.busy) body.busy_elsewhere = true;
  await t.admin.put(`/admin/users/${pn}`, body).expect(201);
  for (let i = 0; i < (options.accounts ?? 0); i++) {
    await t.admin.post(`/admin/users/${pn}/accounts`, { name: `Konto ${i}`, currency: 'SEK', balance: 1000 }).expect(201);
  }
  return pn;
}

/** A PSD2 client: one TPP certificate and the calls of bank §4.1 with its headers. */
export class Psd2Client {
  constructor(
    private readonly t: TestApp,
    readonly cert: string,
  ) {}

  static async create(t: TestApp, roles: Psd2Role[] = ['PSP_AI', 'PSP_PI']): Promise<Psd2Client> {
    return new Psd2Client(t, await certificate(roles));
  }

  headers(extra: Record<string, string | undefined> = {}): Record<string, string> {
    const all: Record<string, string | undefined> = { 'X-PSD2-CLIENT-TEST-CERT': this.cert, 'PSU-IP-Address': PSU_IP, ...extra };
    return Object.fromEntries(Object.entries(all).filter(([, v]) => v !== undefined)) as Record<string, string>;
  }

  start(
    options: { flow?: 'authenticate' | 'authorize'; user?: string; mode?: string; scopes?: string; body?: object; headers?: Record<string, string | undefined> } = {},
  ) {
    const body = options.body ?? { end_user_ip: PSU_IP, start_mode: options.mode ?? 'AUTO_START', scopes: options.scopes ?? 'AIS,PIS' };
    return this.t.http
      .post(`/psd2/auth/3.0/${options.flow ?? 'authenticate'}`)
      .set(this.headers({ 'X-Sandbox-User': options.user, ...options.headers }))
      .send(body);
  }

  async pendingCode(options: Parameters<Psd2Client['start']>[0] = {}): Promise<{ pendingCode: string; autoStartToken?: string }> {
    const res = await this.start(options).expect(200);
    return { pendingCode: res.body.pending_code, autoStartToken: res.body.auto_start_token };
  }

  status(pendingCode: string, headers: Record<string, string | undefined> = {}) {
    return this.t.http.post('/psd2/auth/3.0/status').set(this.headers(headers)).send({ pending_code: pendingCode });
  }

  cancel(pendingCode: string) {
    return this.t.http.post('/psd2/auth/3.0/cancel').set(this.headers()).send({ pending_code: pendingCode });
  }

  token(form: Record<string, string>, headers: Record<string, string | undefined> = {}) {
    return this.t.http.post('/psd2/auth/1.0/token').set(this.headers(headers)).type('form').send(form);
  }

  exchange(pendingCode: string) {
    return this.token({ grant_type: 'pending_authorization_code', pending_code: pendingCode });
  }

  refresh(refreshToken: string) {
    return this.token({ grant_type: 'refresh_token', refresh_token: refreshToken });
  }

  nonAuthenticated(userId: string) {
    return this.token({ grant_type: 'non_authenticated_token', user_id: userId });
  }

  /** A COMPLETE pending code of an AUTO_COMPLETE user (one status call completes it). */
  async completedCode(options: Parameters<Psd2Client['start']>[0] = {}): Promise<string> {
    const { pendingCode } = await this.pendingCode(options);
    const status = await this.status(pendingCode).expect(200);
    expect(status.body.eid_auth_status).toBe('COMPLETE');
    return pendingCode;
  }

  /** Token response of a completed flow. */
  async tokens(options: Parameters<Psd2Client['start']>[0] = {}): Promise<Record<string, unknown> & { access_token: string }> {
    const res = await this.exchange(await this.completedCode(options)).expect(200);
    return res.body;
  }
}

/** An RFC 6749 §5.2 error answer of a token endpoint: exactly { error, error_description }, JSON, no-store (contract §2). */
export function expectOAuthError(res: { status: number; headers: Record<string, string>; body: Record<string, unknown> }, status: number, error: string): void {
  expect({ status: res.status, body: res.body }).toEqual({ status, body: { error, error_description: expect.any(String) } });
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(res.headers['cache-control']).toBe('no-store');
}

/** A PSU with accounts and a TPP holding tokens for it: the starting point of AIS/PIS tests. */
export interface Psu {
  user: string;
  accounts: string[];
  tpp: Psd2Client;
  /** Access token of the given flow and scopes. */
  token(flow?: 'authenticate' | 'authorize' | 'non_authenticated', scopes?: string): Promise<string>;
}

export async function newPsu(
  t: TestApp,
  options: UserOptions & { balance?: number; currency?: string; tpp?: Psd2Client; /** Chosen account numbers (default: the service's). */ accountNumbers?: string[] } = {},
): Promise<Psu> {
  const user = await newUser(t, { ...options, accounts: 0 });
  const accounts: string[] = [];
  for (let i = 0; i < (options.accountNumbers?.length ?? options.accounts ?? 1); i++) {
    const chosen = options.accountNumbers?.[i];
    const res = await t.admin
      .post(`/admin/users/${user}/accounts`, { name: `Konto ${i}`, currency: options.currency ?? 'SEK', balance: options.balance ?? 10000, ...(chosen ? { account_number: chosen } : {}) })
      .expect(201);
    accounts.push(res.body.account_number);
  }
  const tpp = options.tpp ?? (await Psd2Client.create(t));
  return {
    user,
    accounts,
    tpp,
    token: async (flow = 'authenticate', scopes = 'AIS,PIS') => {
      if (flow === 'non_authenticated') return (await tpp.nonAuthenticated(user).expect(200)).body.access_token;
      // The eid behaviour of the user may not be AUTO_COMPLETE: complete the order through the simulator.
      const { pendingCode, autoStartToken } = await tpp.pendingCode({ flow, user, scopes });
      const opened = await t.http.post('/sandbox/eid/open').send({ token: autoStartToken });
      if (opened.status === 200) await t.http.post(`/sandbox/eid/operations/${opened.body.operation_id}/complete`).expect(204);
      await tpp.status(pendingCode).expect(200);
      return (await tpp.exchange(pendingCode).expect(200)).body.access_token;
    },
  };
}

/** Requests of a TPP with a bearer token (AIS/PIS routes). */
export function bearer(client: Psd2Client, token: string, extra: Record<string, string | undefined> = {}): Record<string, string> {
  return client.headers({ Authorization: `Bearer ${token}`, ...extra });
}
