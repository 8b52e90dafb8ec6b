import type { Response } from 'supertest';
import { newPersonalNumber } from './support/personal-numbers';
import { certificate, Psd2Client } from './support/psd2';
import { type CreatedSandbox, createSandbox, sandboxView } from './support/sandboxes';
import { describeOnServer } from './support/server-only';
import { ADMIN_KEY, closeApps, createTestApp, type TestApp, twoInstances } from './support/test-app';

const operator = { Authorization: `Bearer ${ADMIN_KEY}` };
/** The demo set's default user (contract §8), seeded in every sandbox created with it. */
const DEMO_USER = '191212121212';
const CLIENTS = 10;

type Call = () => PromiseLike<Response>;

/** The calls of the audit: PSD2 authenticate, a pre-approval, a user seeded with the sandbox's own admin key, a non-authenticated token. */
async function callsInto(t: TestApp, sandbox: CreatedSandbox): Promise<Record<string, Call>> {
  const view = sandboxView(t, sandbox);
  const tpp = new Psd2Client(view, await certificate(['PSP_AI', 'PSP_PI'], 'PSDSE-FINA-12345'));
  return {
    authenticate: () => tpp.start({ scopes: 'AIS' }),
    'pre-approval': () =>
      view.http
        .post('/mortgage/2.0/pre-approval')
        .set({ Authorization: `Bearer ${sandbox.demo_partner_key}` })
        .send({ applicants: [{ personal_number: DEMO_USER, yearly_income: 500_000 }], loan_amount: 1_000_000 }),
    'PUT /admin/users': () => view.admin.put(`/admin/users/${newPersonalNumber()}`, { name: 'In Flight', kyc_completed: true }),
    'non-authenticated token': () => tpp.nonAuthenticated(DEMO_USER),
  };
}

interface Answer {
  call: string;
  res: Response;
}

/**
 * CLIENTS loops, each sending the calls in turn, as long as `operate` runs (and a round after it),
 * so requests are in flight whenever the operator acts; `operate` is given a wait for `n` more answers.
 */
async function whileClientsCall(calls: Record<string, Call>, operate: (answered: (n: number) => Promise<void>) => Promise<void>): Promise<Answer[]> {
  const answers: Answer[] = [];
  const waiting: Array<{ count: number; resolve: () => void }> = [];
  let stopped = false;
  const names = Object.keys(calls);
  const client = async (offset: number) => {
    for (let i = offset; !stopped; i++) {
      const call = names[i % names.length];
      answers.push({ call, res: await calls[call]() });
      for (const waiter of waiting.filter((w) => answers.length >= w.count)) {
        waiting.splice(waiting.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  };
  const answered = (n: number) => new Promise<void>((resolve) => waiting.push({ count: answers.length + n, resolve }));
  const clients = Array.from({ length: CLIENTS }, (_, i) => client(i));
  try {
    await operate(answered);
    await answered(CLIENTS);
  } finally {
    stopped = true;
    await Promise.all(clients);
  }
  return answers;
}

const isSuccess = (res: Response) => res.status === 200 || res.status === 201;
const describeAnswer = ({ call, res }: Answer) => `${call} → ${res.status} ${JSON.stringify(res.body)}`;

/** 503 SANDBOX_RESET with Retry-After: 1, a problem (contract §2), or temporarily_unavailable at the token endpoint. */
function isResetAnswer({ call, res }: Answer): boolean {
  if (res.status !== 503 || res.headers['retry-after'] !== '1') return false;
  return call === 'non-authenticated token' ? res.body.error === 'temporarily_unavailable' : res.body.reason?.code === 'SANDBOX_RESET';
}

/** The sandbox's own 404 (contract §13: "Requests in flight may finish or fail with 404"). */
function isNotFound({ call, res }: Answer): boolean {
  if (res.status !== 404) return false;
  return call === 'non-authenticated token' ? typeof res.body.error === 'string' : res.body.reason?.code === 'NOT_FOUND';
}

describe('requests in flight during a reset or delete (contract §2 "Never a 500", §13 Lifecycle)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ env: { DOWNTIME_CALENDAR: 'off' } });
  });
  afterAll(() => t.close());

  it('§13 reset: a request in flight runs before or after POST /sandboxes/{id}/reset, or answers 503 SANDBOX_RESET with Retry-After: 1 — never a 500, never "no longer exists", never a wrong 400 or 401', async () => {
    const sandbox = await createSandbox(t, { name: 'x' });
    const calls = await callsInto(t, sandbox);
    const answers = await whileClientsCall(calls, async (answered) => {
      for (let reset = 0; reset < 5; reset++) {
        await answered(2 * CLIENTS);
        await t.http.post(`/sandboxes/${sandbox.sandbox_id}/reset`).set(operator).expect(200);
      }
    });
    expect(answers.length).toBeGreaterThan(10 * CLIENTS);
    expect(answers.filter((answer) => !isSuccess(answer.res) && !isResetAnswer(answer)).map(describeAnswer)).toEqual([]);
    // The sandbox as newly created serves every call again.
    for (const [call, send] of Object.entries(calls)) expect({ call, succeeded: isSuccess(await send()) }).toEqual({ call, succeeded: true });
  });

  it('§13 DELETE: a request in flight finishes or answers 404 NOT_FOUND — never a 500, nor a 400 or 401 for the users and keys that went with the sandbox', async () => {
    for (let round = 0; round < 3; round++) {
      const sandbox = await createSandbox(t, { name: 'x' });
      const calls = await callsInto(t, sandbox);
      const answers = await whileClientsCall(calls, async (answered) => {
        await answered(2 * CLIENTS);
        await t.http.delete(`/sandboxes/${sandbox.sandbox_id}`).set(operator).expect(204);
      });
      expect(answers.filter((answer) => !isSuccess(answer.res) && !isNotFound(answer)).map(describeAnswer)).toEqual([]);
      // Deleted: 404 at once on this instance, on every route under it.
      for (const [call, send] of Object.entries(calls)) expect({ call, status: (await send()).status }).toEqual({ call, status: 404 });
    }
  });
});

describeOnServer('resets and deletes of one sandbox sent together (contract §13 Lifecycle)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ env: { DOWNTIME_CALENDAR: 'off' } });
  });
  afterAll(() => t.close());

  it('§13: two resets sent together both answer 200, and a reset and a DELETE together run one after the other — never 404 "no sandbox" while it still exists', async () => {
    for (let round = 0; round < 5; round++) {
      const sandbox = await createSandbox(t, { name: 'x' });
      const reset = () => t.http.post(`/sandboxes/${sandbox.sandbox_id}/reset`).set(operator);
      expect((await Promise.all([reset(), reset(), reset()])).map((res) => res.status)).toEqual([200, 200, 200]);
      const [resetting, deleting] = await Promise.all([reset(), t.http.delete(`/sandboxes/${sandbox.sandbox_id}`).set(operator)]);
      expect(deleting.status).toBe(204);
      expect([200, 404]).toContain(resetting.status);
      expect((await t.http.get(`/sandboxes/${sandbox.sandbox_id}`).set(operator)).status).toBe(404);
    }
  });
});

describeOnServer('requests in flight on another instance during a reset or delete (contract §1 several instances, §13 Lifecycle)', () => {
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    [a, b] = await twoInstances({ env: { DOWNTIME_CALENDAR: 'off' } });
  });
  afterAll(() => closeApps(a, b));

  it('§13 reset on one instance: requests on the other, whose caches lag up to a second, succeed or answer 503 SANDBOX_RESET — never a 500', async () => {
    const sandbox = await createSandbox(a, { name: 'x' });
    const answers = await whileClientsCall(await callsInto(b, sandbox), async (answered) => {
      for (let reset = 0; reset < 3; reset++) {
        await answered(2 * CLIENTS);
        await a.http.post(`/sandboxes/${sandbox.sandbox_id}/reset`).set(operator).expect(200);
      }
    });
    expect(answers.filter((answer) => !isSuccess(answer.res) && !isResetAnswer(answer)).map(describeAnswer)).toEqual([]);
  });

  it('§13 DELETE on one instance: requests on the other finish or answer 404 NOT_FOUND while its routing still knows the sandbox — never a 400, 401 or 500', async () => {
    const sandbox = await createSandbox(a, { name: 'x' });
    const answers = await whileClientsCall(await callsInto(b, sandbox), async (answered) => {
      await answered(2 * CLIENTS);
      await a.http.delete(`/sandboxes/${sandbox.sandbox_id}`).set(operator).expect(204);
      await answered(4 * CLIENTS);
    });
    expect(answers.filter((answer) => !isSuccess(answer.res) && !isNotFound(answer)).map(describeAnswer)).toEqual([]);
  });
});
