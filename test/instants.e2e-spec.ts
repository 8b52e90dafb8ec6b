import fc from 'fast-check';
import { randomUUID, X509Certificate } from 'node:crypto';
import type { Response } from 'supertest';
import { DataSource } from 'typeorm';
import { DEFAULT_SANDBOX_ID, JobRunner, JournalWriter } from '@app/common';
import { expectProblem } from './support/problems';
import { certificate } from './support/psd2';
import { type CreatedSandbox, createSandbox, sandboxView } from './support/sandboxes';
import { ADMIN_KEY, createTestApp, TestApp } from './support/test-app';

const operator = { Authorization: `Bearer ${ADMIN_KEY}` };

/** What a black-box fuzz audit sent: ISO 8601 spellings other than RFC 3339's date-time, and impossible ones. */
const MALFORMED = [
  '2026-W48-5T10:00:00Z', // week date
  '2026-332T10:00:00Z', // ordinal date
  '20261127T100000Z', // basic format
  '2026-11-27T10:00:00,5Z', // decimal comma
  '2026-11-27T10Z', // hour only
  '2026-11-27T10:00:00', // no offset
  '2026-11-27 10:00:00Z', // a space for T
  '2026-02-30T10:00:00Z', // no such day
  '2026-11-27T24:00:00Z',
  '2026-11-27T23:59:60Z', // a leap second: no JavaScript Date holds one
  '2026-11-27T10:00:00+24:00',
  '+002026-11-27T10:00:00Z', // expanded year
  '2026-11-27T10:00:00.Z',
];

/** 400 VALIDATION_FAILED whose message is about `field` (nested fields by their path, contract §2). */
function expectRefused(res: Response, field: string, rule = /must be an ISO 8601 date-time \(RFC 3339\)/): void {
  const { reason } = expectProblem(res, 400, 'VALIDATION_FAILED');
  expect(reason.message.startsWith(`${field} `)).toBe(true);
  expect(reason.message).toMatch(rule);
}

describe('one strict instant rule for every date-time input (contract §2, §6, §14, §16): 400 naming the field, never a 500', () => {
  let t: TestApp;
  let cert: string;
  beforeAll(async () => {
    t = await createTestApp();
    cert = await certificate();
  });
  afterAll(() => t.close());

  it.each(MALFORMED)('refuses since and until = %s on GET /admin/requests and GET /sandbox/requests (contract §14)', async (text) => {
    expectRefused(await t.admin.get('/admin/requests').query({ since: text }), 'since');
    expectRefused(await t.admin.get('/admin/requests').query({ until: text }), 'until');
    expectRefused(await t.http.get('/sandbox/requests').set('X-PSD2-CLIENT-TEST-CERT', cert).query({ since: text }), 'since');
    expectRefused(await t.http.get('/sandbox/requests').set('X-PSD2-CLIENT-TEST-CERT', cert).query({ until: text }), 'until');
  });

  it.each(MALFORMED)('refuses not_before and not_after = %s on POST /sandbox/certificates (contract §16)', async (text) => {
    expectRefused(await t.admin.post('/sandbox/certificates', { organization_id: 'X-1', roles: [], not_after: text }), 'not_after');
    expectRefused(await t.admin.post('/sandbox/certificates', { organization_id: 'X-1', roles: [], not_before: text }), 'not_before');
  });

  it.each(MALFORMED)('refuses now = %s on PUT /admin/clock and clock.now on POST /sandboxes, nothing created (contract §6, §13)', async (text) => {
    const before = await t.get(DataSource).query(`SELECT count(*)::int AS n FROM sandbox`);
    expectRefused(await t.admin.put('/admin/clock', { now: text, frozen: true }), 'now');
    expectRefused(await t.http.post('/sandboxes').set(operator).send({ name: 'x', seed_demo: false, clock: { now: text } }), 'clock.now');
    expect(await t.get(DataSource).query(`SELECT count(*)::int AS n FROM sandbox`)).toEqual(before);
  });

  it('reads every RFC 3339 form to the millisecond: a fraction, an offset, -00:00, a lowercase t and z (contract §6)', async () => {
    const read = async (now: string) => (await t.admin.put('/admin/clock', { now, frozen: true }).expect(200)).body.now;
    expect(await read('2026-11-24T10:00:00.5+01:00')).toBe('2026-11-24T09:00:00.500Z');
    expect(await read('2026-11-24T10:00:00.123456789-05:30')).toBe('2026-11-24T15:30:00.123Z');
    expect(await read('2026-11-24T10:00:00-00:00')).toBe('2026-11-24T10:00:00.000Z');
    expect(await read('2024-02-29t23:59:59z')).toBe('2024-02-29T23:59:59.000Z');
    // ISO 8601's extended form without seconds, and a ±HHMM offset (the contract's prose writes 2025-11-01T00:00).
    expect(await read('2025-11-01T00:00+01:00')).toBe('2025-10-31T23:00:00.000Z');
    expect(await read('2026-11-24T10:00:00+0100')).toBe('2026-11-24T09:00:00.000Z');
    await t.clock.freeze();
  });

  it('filters the journal by since and until with an offset sent as %2B; a + sent bare arrives as a space and is refused saying so (contract §14)', async () => {
    await t.admin.get('/admin/requests?since=2026-11-24T10:00:00%2B01:00&until=2999-01-01T00:00:00.5Z').expect(200);
    const refused = await t.admin.get('/admin/requests?since=2026-11-24T10:00:00+01:00');
    expectRefused(refused, 'since', /send the \+ of an offset as %2B/);
  });

  it('issues a certificate valid between two RFC 3339 instants, however their offsets are written (contract §16)', async () => {
    const issued = await t.admin.post('/sandbox/certificates', { organization_id: 'X-1', roles: [], not_before: '2026-11-24T10:00:00.250+01:00', not_after: '2027-11-24t09:00:00z' }).expect(201);
    const parsed = new X509Certificate(issued.body.certificate_pem);
    expect(new Date(parsed.validFrom).toISOString()).toBe('2026-11-24T09:00:00.000Z');
    expect(new Date(parsed.validTo).toISOString()).toBe('2027-11-24T09:00:00.000Z');
  });

  it('refuses a certificate validity outside 1950–9999, which RFC 5280 cannot state, given or by default from the sandbox clock: 400 naming the field (contract §16)', async () => {
    const issue = (body: object) => t.admin.post('/sandbox/certificates', { organization_id: 'X-1', roles: [], ...body });
    const outside = /must be from 1950-01-01T00:00:00\.000Z to 9999-12-31T23:59:59\.999Z/;
    expectRefused(await issue({ not_before: '1949-12-31T23:59:59Z', not_after: '2030-01-01T00:00:00Z' }), 'not_before', outside);
    const edges = (await issue({ not_before: '1950-01-01T00:00:00Z', not_after: '9999-12-31T23:59:59Z' }).expect(201)).body;
    const parsed = new X509Certificate(edges.certificate_pem);
    expect([new Date(parsed.validFrom).toISOString(), new Date(parsed.validTo).toISOString()]).toEqual(['1950-01-01T00:00:00.000Z', '9999-12-31T23:59:59.000Z']);
    await t.clock.set('1920-06-01T00:00:00Z', true);
    try {
      expectRefused(await issue({}), 'not_before', /default from the sandbox clock, 1920-05-31T23:00:00\.000Z/);
    } finally {
      await t.clock.freeze();
    }
  });

  it('property (contract §2): any text as since answers 200 or 400, never a 500, and every instant between years 0000 and 9999 in RFC 3339 answers 200', async () => {
    const pad = (n: number, width = 2) => String(n).padStart(width, '0');
    const rfc3339 = fc
      .record({
        at: fc.date({ min: new Date('0000-01-01T00:00:00Z'), max: new Date('9999-12-30T00:00:00Z'), noInvalidDate: true }),
        offsetMinutes: fc.integer({ min: -(23 * 60 + 59), max: 23 * 60 + 59 }),
        fraction: fc.constantFrom('', '.5', '.123', '.123456789'),
      })
      .map(({ at, offsetMinutes, fraction }) => {
        const local = new Date(at.getTime() + offsetMinutes * 60_000);
        if (local.getUTCFullYear() < 0 || local.getUTCFullYear() > 9999) return at.toISOString();
        const abs = Math.abs(offsetMinutes);
        const offset = offsetMinutes === 0 ? 'Z' : `${offsetMinutes < 0 ? '-' : '+'}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
        const date = `${pad(local.getUTCFullYear(), 4)}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}`;
        return `${date}T${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}${fraction}${offset}`;
      });
    await fc.assert(
      fc.asyncProperty(rfc3339, async (since) => {
        await t.admin.get('/admin/requests').query({ since, limit: 1 }).expect(200);
      }),
      { numRuns: 60 },
    );
    const unit = fc.constantFrom('0', '1', '2', '9', '-', ':', 'T', 'Z', '+', '.', ',', 'W', ' ', 'z', 't');
    const nearlyInstant = fc.oneof(
      fc.string({ unit, maxLength: 30 }),
      fc.tuple(rfc3339, fc.nat(30), fc.string({ unit, minLength: 1, maxLength: 3 })).map(([text, at, insert]) => text.slice(0, at) + insert + text.slice(at + 1)),
    );
    await fc.assert(
      fc.asyncProperty(nearlyInstant, async (since) => {
        const res = await t.admin.get('/admin/requests').query({ since, limit: 1 });
        expect([200, 400]).toContain(res.status);
        if (res.status === 400) expectRefused(res, 'since');
      }),
      { numRuns: 150 },
    );
  });
});

describe('the sandbox clock stays from 1900-01-01T00:00:00Z to 9000-01-01T00:00:00Z (contract §6; §13 nothing crosses sandboxes)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const RANGE = /must be from 1900-01-01T00:00:00\.000Z to 9000-01-01T00:00:00\.000Z, the sandbox clock's range/;

  it.each(['9999-12-31T23:59:59Z', '9000-01-01T00:00:00.001Z', '9000-01-01T01:00:00.001+01:00', '1899-12-31T23:59:59.999Z', '0001-01-01T00:00:00Z'])(
    'PUT /admin/clock refuses now=%s, outside the range: 400 naming now, the clock stays (contract §6)',
    async (now) => {
      await t.clock.freeze();
      const before = await t.clock.read();
      expectRefused(await t.admin.put('/admin/clock', { now, frozen: true }), 'now', RANGE);
      expect(await t.clock.read()).toEqual(before);
    },
  );

  it('PUT /admin/clock accepts both ends of the range (contract §6)', async () => {
    expect((await t.clock.set('9000-01-01T01:00:00+01:00', true)).now).toBe('9000-01-01T00:00:00.000Z');
    expect((await t.clock.set('1900-01-01T00:00:00Z', true)).now).toBe('1900-01-01T00:00:00.000Z');
    await t.clock.freeze();
  });

  it('POST /admin/clock/advance refuses a move past 9000-01-01T00:00:00Z: 400 naming seconds, the clock stays; up to the end it moves (contract §6)', async () => {
    await t.clock.set('8999-12-31T23:59:59Z', true);
    expect((await t.clock.advance(1)).now).toBe('9000-01-01T00:00:00.000Z');
    expectRefused(await t.admin.post('/admin/clock/advance', { seconds: 1 }), 'seconds', /must not move the sandbox clock past 9000-01-01T00:00:00\.000Z/);
    expect(await t.clock.read()).toEqual({ now: '9000-01-01T00:00:00.000Z', frozen: true });
    expect((await t.clock.advance(0)).now).toBe('9000-01-01T00:00:00.000Z');
    // A running clock is measured as the update finds it, 100 years at most per advance.
    await t.clock.set('8950-01-01T00:00:00Z');
    expectRefused(await t.admin.post('/admin/clock/advance', { seconds: 3_155_760_000 }), 'seconds', /past 9000-01-01/);
    expect((await t.clock.read()).now < '8950-01-02').toBe(true);
    await t.clock.freeze();
  });

  it('POST /sandboxes refuses clock.now outside the range: 400 naming clock.now, no sandbox created (contract §13 Lifecycle)', async () => {
    const count = async () => (await t.get(DataSource).query(`SELECT count(*)::int AS n FROM sandbox`))[0].n;
    const before = await count();
    for (const now of ['9999-12-31T23:59:59Z', '1899-12-31T23:59:59Z']) {
      expectRefused(await t.http.post('/sandboxes').set(operator).send({ name: 'x', seed_demo: false, clock: { now, frozen: true } }), 'clock.now', RANGE);
    }
    expect(await count()).toBe(before);
  });

  it('a sandbox created at either end of the range, its demo set seeded, is reset and serves its routes (contract §13 Lifecycle)', async () => {
    for (const now of ['1900-01-01T00:00:00Z', '9000-01-01T00:00:00Z']) {
      const sandbox = await createSandbox(t, { clock: { now, frozen: true } });
      const view = sandboxView(t, sandbox);
      expect(await view.clock.read()).toEqual({ now: new Date(now).toISOString(), frozen: true });
      await t.http.post(`/sandboxes/${sandbox.sandbox_id}/reset`).set(operator).expect(200);
      expect(await view.clock.read()).toEqual({ now: new Date(now).toISOString(), frozen: true });
      await view.http.get('/sandbox/maintenance-windows').expect(200);
      await view.admin.post('/admin/jobs/run').expect(200);
    }
  });

  it('the audit\'s case: a sandbox at 9000-01-01 cannot go past it, and its journal entries and job runs break nothing of another sandbox (contract §13)', async () => {
    const far: CreatedSandbox = await createSandbox(t, { name: 'far', seed_demo: false, clock: { now: '9000-01-01T00:00:00Z', frozen: true } });
    const farView = sandboxView(t, far);
    expectRefused(await farView.admin.post('/admin/clock/advance', { seconds: 1 }), 'seconds', /past 9000-01-01/);
    const [farRequest, nearRequest] = [`far-${randomUUID()}`, `near-${randomUUID()}`];
    await Promise.all([
      farView.http.get('/sandbox/maintenance-windows').set('X-Request-Id', farRequest).expect(200),
      t.http.get('/sandbox/maintenance-windows').set('X-Request-Id', nearRequest).expect(200),
    ]);
    await t.app.get(JournalWriter).flush();
    expect((await farView.admin.get(`/admin/requests/${farRequest}`).expect(200)).body.at).toBe('9000-01-01T00:00:00.000Z');
    await t.admin.get(`/admin/requests/${nearRequest}`).expect(200);
    const failedJobs = () => t.logs.filter((line) => line.msg === 'job failed' || line.msg === 'job failed to find its due work').length;
    const failedBefore = failedJobs();
    await t.get(JobRunner).tick();
    await t.get(JobRunner).tick();
    expect(failedJobs()).toBe(failedBefore);
    expect((await t.http.get('/health').expect(200)).body.details.journal).toMatchObject({ lost: 0, failed_writes: 0 });
  });
});

describe('one sandbox\'s unreadable data fails nothing of another sandbox (contract §13: nothing crosses sandboxes)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('a journal row PostgreSQL refuses is lost alone: the other entries of its batch, other sandboxes\' too, are written (contract §13, §14)', async () => {
    const other = await createSandbox(t, { seed_demo: false });
    const writer = t.app.get(JournalWriter);
    await writer.flush();
    const before = writer.health();
    const entry = (sandboxId: string, requestId: string, at: Date) => ({
      sandboxId,
      requestId,
      arrivalMicros: Date.now() * 1000,
      at,
      method: 'GET',
      path: '/sandbox/maintenance-windows',
      query: {},
      status: 200,
      durationMs: 1,
      caller: { kind: 'anonymous' as const },
      reasonCode: null,
      request: '{"headers":{}}',
      response: '{}',
      hints: [],
      replayed: false,
    });
    const ids = Array.from({ length: 7 }, (_, i) => `isolated-${i}-${randomUUID()}`);
    // What a clock moved past year 9999 once wrote (toISOString: +010000-01-01T00:00:00.000Z), between good rows of two sandboxes.
    ids.forEach((id, i) => writer.record(entry(i % 2 ? other.sandbox_id : DEFAULT_SANDBOX_ID, id, i === 3 ? new Date('+010000-01-01T00:00:00Z') : new Date())));
    await writer.flush();
    const stored: Array<{ request_id: string }> = await t.get(DataSource).query(`SELECT request_id FROM journal_entry WHERE request_id = ANY($1)`, [ids]);
    expect(stored.map((row) => row.request_id).sort()).toEqual(ids.filter((_, i) => i !== 3).sort());
    expect(writer.health()).toMatchObject({ written: before.written + 6, lost: before.lost + 1, failed_writes: before.failed_writes + 1 });
  });

  it('a downtime observation PostgreSQL cannot read fails the bookkeeping job for no other sandbox, and is written afresh (contract §13 Time and jobs, §7)', async () => {
    const beforeWindow = '2026-11-22T03:59:00+01:00';
    const [broken, passes] = [await createSandbox(t, { seed_demo: false, clock: { now: beforeWindow, frozen: true } }), await createSandbox(t, { seed_demo: false, clock: { now: beforeWindow, frozen: true } })];
    await t.get(JobRunner).tick(); // the first observation of each
    const db = t.get(DataSource);
    await db.query(`UPDATE sandbox_meta SET value = '+010000-01-01T00:00:00.000Z' WHERE sandbox_id = $1 AND key = 'downtime_observed_until'`, [broken.sandbox_id]);
    await sandboxView(t, passes).admin.post('/admin/clock/advance', { seconds: 120 }).expect(200);
    await t.get(JobRunner).tick();
    const events = await db.query(`SELECT event FROM maintenance_window_event WHERE sandbox_id = $1`, [passes.sandbox_id]);
    expect(events).toEqual([{ event: 'started' }]);
    const [observed] = await db.query(`SELECT value FROM sandbox_meta WHERE sandbox_id = $1 AND key = 'downtime_observed_until'`, [broken.sandbox_id]);
    expect(observed.value).toBe('2026-11-22T02:59:00.000Z');
    // Nothing replayed for the broken one: an unreadable observation counts as none.
    expect(await db.query(`SELECT event FROM maintenance_window_event WHERE sandbox_id = $1`, [broken.sandbox_id])).toEqual([]);
  });
});
