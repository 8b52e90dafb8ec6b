import { randomUUID } from 'node:crypto';
import { SandboxClock, SandboxRegistry } from '@app/common';
import { PartnerService } from '@app/directory';
import { expectProblem } from './support/problems';
import { describeOnServer } from './support/server-only';
import { ADMIN_KEY, closeApps, createTestApp, TestApp, twoInstances } from './support/test-app';

interface Created {
  sandbox_id: string;
  admin_key: string;
  demo_partner_key: string;
}

const operator = { Authorization: `Bearer ${ADMIN_KEY}` };
const key = (value: string) => ({ Authorization: `Bearer ${value}` });

/** What this instance keeps in memory of a sandbox: its clock copy, partner cache entries, registry marks. */
function kept(t: TestApp, sandboxId: string): string[] {
  const clock = t.app.get(SandboxClock);
  const partners = t.app.get(PartnerService)['known'];
  const registry = t.app.get(SandboxRegistry);
  return [
    ...(clock['sandboxes'].has(sandboxId) ? ['clock'] : []),
    ...([...partners.values()].some((entries) => [...entries.keys()].some((scope) => scope.startsWith(`${sandboxId}/`))) ? ['partner cache'] : []),
    ...(registry['seenAtMs'].has(sandboxId) || registry['touchedAtMs'].has(sandboxId) ? ['registry'] : []),
  ];
}

/** A sandbox with its clock read and its demo partner cached on `t`. */
async function used(creator: TestApp, t: TestApp): Promise<Created> {
  const sb: Created = (await creator.http.post('/sandboxes').set(operator).send({ name: 'cached' }).expect(201)).body;
  await t.http.get(`/sandboxes/${sb.sandbox_id}/admin/clock`).set(key(sb.admin_key)).expect(200);
  await t.http.get(`/sandboxes/${sb.sandbox_id}/mortgage/2.0/pre-approval/${randomUUID()}/status`).set(key(sb.demo_partner_key)).expect(404);
  expect(kept(t, sb.sandbox_id)).toEqual(['clock', 'partner cache', 'registry']);
  return sb;
}

describe('contract §13 Lifecycle: a deleted sandbox leaves nothing in this instance\'s caches', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { DOWNTIME_CALENDAR: 'off' } });
  });
  afterAll(() => t.close());

  it('contract §13 Lifecycle: DELETE drops its clock copy, cache entries and registry marks at once', async () => {
    const sb = await used(t, t);
    await t.http.delete(`/sandboxes/${sb.sandbox_id}`).set(operator).expect(204);
    expect(kept(t, sb.sandbox_id)).toEqual([]);
    expectProblem(await t.http.get(`/sandboxes/${sb.sandbox_id}/admin/clock`).set(key(sb.admin_key)), 404, 'NOT_FOUND');
    expect(kept(t, sb.sandbox_id)).toEqual([]);
  });

  it('contract §13 Lifecycle: a reset drops the old generation\'s cache entries', async () => {
    const sb = await used(t, t);
    await t.http.post(`/sandboxes/${sb.sandbox_id}/reset`).set(operator).expect(200);
    expect(kept(t, sb.sandbox_id)).not.toContain('partner cache');
  });
});

describeOnServer('contract §13 Lifecycle: a sandbox deleted on another instance', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    [a, b] = await twoInstances({ env: { DOWNTIME_CALENDAR: 'off' } });
  });
  afterAll(() => closeApps(a, b));

  it('contract §13 Lifecycle: is dropped from this instance\'s caches once a request finds it gone', async () => {
    const sb = await used(a, b);
    await a.http.delete(`/sandboxes/${sb.sandbox_id}`).set(operator).expect(204);
    // Within the routing's second it may still pass the edge; then its clock read finds it gone.
    const deadline = Date.now() + 1500;
    let status: number;
    do {
      status = (await b.http.get(`/sandboxes/${sb.sandbox_id}/admin/clock`).set(key(sb.admin_key))).status;
      if (status === 404) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    } while (Date.now() < deadline);
    expect(status).toBe(404);
    expect(kept(b, sb.sandbox_id)).toEqual([]);
  });
});
