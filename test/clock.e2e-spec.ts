import { SandboxClock } from '@app/common';
import { expectProblem, expectValidationFailed } from './support/problems';
import { describeOnServer } from './support/server-only';
import { BASE_TIME, closeApps, createTestApp, TestApp, twoInstances } from './support/test-app';

const AT = '2026-11-24T12:00:00+01:00';
const AT_MS = Date.parse(AT);
const secondsBetween = (a: string, b: number) => (Date.parse(a) - b) / 1000;

describe('sandbox clock (contract §6)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('PUT /admin/clock sets now; GET answers { now, frozen } and the clock runs on from there (contract §6)', async () => {
    const put = await t.admin.put('/admin/clock', { now: AT }).expect(200);
    expect(put.body).toEqual({ now: expect.any(String), frozen: false });
    const get = await t.admin.get('/admin/clock').expect(200);
    expect(get.body.frozen).toBe(false);
    const elapsed = secondsBetween(get.body.now, AT_MS);
    expect(elapsed).toBeGreaterThanOrEqual(0);
    expect(elapsed).toBeLessThan(5);
  });

  it('answers now as ISO 8601 in UTC (contract §6)', async () => {
    const res = await t.admin.put('/admin/clock', { now: AT, frozen: true }).expect(200);
    expect(res.body).toEqual({ now: '2026-11-24T11:00:00.000Z', frozen: true });
  });

  it('a frozen clock stands still: the same now on every read (contract §6)', async () => {
    await t.admin.put('/admin/clock', { now: AT, frozen: true }).expect(200);
    const first = await t.admin.get('/admin/clock').expect(200);
    const second = await t.admin.get('/admin/clock').expect(200);
    expect(first.body).toEqual({ now: new Date(AT_MS).toISOString(), frozen: true });
    expect(second.body).toEqual(first.body);
    expect(t.get(SandboxClock).now().toISOString()).toBe(new Date(AT_MS).toISOString());
  });

  it('POST /admin/clock/advance moves a frozen clock by exactly n seconds and keeps it frozen (contract §6)', async () => {
    await t.admin.put('/admin/clock', { now: AT, frozen: true }).expect(200);
    const res = await t.admin.post('/admin/clock/advance', { seconds: 30 }).expect(200);
    expect(res.body).toEqual({ now: new Date(AT_MS + 30_000).toISOString(), frozen: true });
    const again = await t.admin.post('/admin/clock/advance', { seconds: 0.5 }).expect(200);
    expect(again.body.now).toBe(new Date(AT_MS + 30_500).toISOString());
  });

  it('POST /admin/clock/advance moves a running clock forward and it keeps running (contract §6)', async () => {
    await t.admin.put('/admin/clock', { now: AT }).expect(200);
    const res = await t.admin.post('/admin/clock/advance', { seconds: 3600 }).expect(200);
    expect(res.body.frozen).toBe(false);
    const moved = secondsBetween(res.body.now, AT_MS);
    expect(moved).toBeGreaterThanOrEqual(3600);
    expect(moved).toBeLessThan(3605);
  });

  it('DELETE /admin/clock returns to real time and answers the body of GET (contract §6)', async () => {
    await t.admin.put('/admin/clock', { now: '2030-01-01T00:00:00Z', frozen: true }).expect(200);
    const res = await t.admin.delete('/admin/clock').expect(200);
    expect(res.body.frozen).toBe(false);
    const realNow = Date.now();
    expect(Math.abs(Date.parse(res.body.now) - realNow)).toBeLessThan(5000);
    await t.admin.put('/admin/clock', { now: BASE_TIME }).expect(200);
  });

  it('refuses a negative advance with 400 naming seconds, and the clock does not move (contract §6: n ≥ 0)', async () => {
    await t.admin.put('/admin/clock', { now: AT, frozen: true }).expect(200);
    expectValidationFailed(await t.admin.post('/admin/clock/advance', { seconds: -60 }), 'seconds');
    expectValidationFailed(await t.admin.post('/admin/clock/advance', { seconds: 'ten' }), 'seconds');
    expect((await t.admin.get('/admin/clock')).body.now).toBe(new Date(AT_MS).toISOString());
  });

  it.each([['yesterday'], ['2026-11-24T12:00:00'], ['2026-13-01T00:00:00Z'], [12345]])(
    'refuses now=%p (not ISO 8601 with an offset) with 400 naming now (contract §6, §2)',
    async (now) => {
      expectValidationFailed(await t.admin.put('/admin/clock', { now }), 'now');
    },
  );

  it('refuses a frozen flag that is not a boolean', async () => {
    expectValidationFailed(await t.admin.put('/admin/clock', { now: AT, frozen: 'yes' }), 'frozen');
  });

  it('keeps the clock in the database: a new instance on the same database starts from it (contract §6)', async () => {
    await t.admin.put('/admin/clock', { now: AT, frozen: true }).expect(200);
    expectProblem(await t.http.get('/admin/clock'), 401);
    const row = await t.get(SandboxClock).refresh().then(() => t.get(SandboxClock).now());
    expect(row.toISOString()).toBe(new Date(AT_MS).toISOString());
  });
});

describeOnServer('sandbox clock shared by several instances (contract §6, §1)', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => ([a, b] = await twoInstances()));
  afterAll(() => closeApps(a, b));

  it('a change made on one instance is what the other reads (one row, contract §6)', async () => {
    await a.admin.put('/admin/clock', { now: AT, frozen: true }).expect(200);
    const seen = await b.admin.get('/admin/clock').expect(200);
    expect(seen.body).toEqual({ now: new Date(AT_MS).toISOString(), frozen: true });
  });

  it('concurrent advances from two instances add up: the update is atomic SQL (contract §6)', async () => {
    await a.admin.put('/admin/clock', { now: AT, frozen: true }).expect(200);
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).admin.post('/admin/clock/advance', { seconds: 1 }).expect(200)),
    );
    const res = await b.admin.get('/admin/clock').expect(200);
    expect(res.body.now).toBe(new Date(AT_MS + 20_000).toISOString());
  });
});
