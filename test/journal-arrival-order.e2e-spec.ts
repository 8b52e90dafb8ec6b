import { Controller, Module, Post } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { JournalWriter, Public } from '@app/common';
import { expectValidationFailed } from './support/problems';
import { certificate, Psd2Client } from './support/psd2';
import { createSandbox, type CreatedSandbox, sandboxView } from './support/sandboxes';
import { createTestApp, TestApp } from './support/test-app';

/** A request that waits in its handler until the test lets it answer: it arrives before, and finishes after, another. */
@Controller('test-only/arrival')
class HeldRequestController {
  static entered: () => void = () => undefined;
  static release: Promise<void> = Promise.resolve();

  @Post('held')
  @Public()
  async held(): Promise<{ held: true }> {
    HeldRequestController.entered();
    await HeldRequestController.release;
    return { held: true };
  }
}

@Module({ controllers: [HeldRequestController] })
class HeldRequestModule {}

interface Entry {
  request_id: string;
  arrived_at: string;
  at: string;
}
interface Page {
  entries: Entry[];
  next_after?: string;
}

const newRequestId = (label: string) => `${label}-${randomUUID()}`;

/** The cursor as its 16 bytes: the arrival (µs since the epoch) and the entry's tiebreak. */
function cursorBytes(cursor: string): { arrivalMicros: bigint; tiebreak: bigint } {
  const bytes = Buffer.from(cursor, 'base64url');
  expect(bytes).toHaveLength(16);
  return { arrivalMicros: bytes.readBigUInt64BE(0), tiebreak: bytes.readBigUInt64BE(8) };
}

describe('contract §14 journal: arrival order, arrived_at and an opaque next_after', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ imports: [HeldRequestModule] });
  });
  afterAll(() => t.close());

  const flush = () => t.app.get(JournalWriter).flush();
  /** A request recorded in the sandbox, by id. */
  const hit = (view: TestApp, requestId: string) => view.http.get('/sandbox/test-certificate').set('X-Request-Id', requestId).expect(200);
  const list = async (view: TestApp, query: Record<string, string | number> = {}): Promise<Page> => (await view.admin.get('/admin/requests').query(query).expect(200)).body;
  const ids = (page: Page) => page.entries.map((entry) => entry.request_id);

  async function newSandbox(): Promise<{ sandbox: CreatedSandbox; view: TestApp }> {
    const sandbox = await createSandbox(t, { seed_demo: false });
    return { sandbox, view: sandboxView(t, sandbox) };
  }

  it('contract §14: next_after names its own entry only (its arrival and a random tiebreak of its own), so from two cursors nobody can count another sandbox\'s requests', async () => {
    const a = await newSandbox();
    const b = await newSandbox();
    const first = newRequestId('a-first');
    await hit(a.view, first);
    // Another tenant's traffic between A's two entries: a shared sequence would count it.
    for (let i = 0; i < 25; i++) await hit(b.view, newRequestId('b'));
    const second = newRequestId('a-second');
    await hit(a.view, second);
    await hit(a.view, newRequestId('a-third'));
    await flush();

    const page = await list(a.view, { limit: 1 });
    const older = await list(a.view, { limit: 1, after: page.next_after! });
    expect(ids(older)).toEqual([second]);
    const rows: Array<{ request_id: string; tiebreak: string; arrival_micros: string }> = await t.app
      .get(DataSource)
      .query(`SELECT request_id, tiebreak::text AS tiebreak, (extract(epoch FROM arrived_at) * 1000000)::bigint::text AS arrival_micros FROM journal_entry WHERE sandbox_id = $1`, [a.sandbox.sandbox_id]);
    for (const [cursor, entry] of [
      [page.next_after!, page.entries[0]],
      [older.next_after!, older.entries[0]],
    ] as const) {
      expect(cursor).toMatch(/^[A-Za-z0-9_-]{22}$/);
      const { arrivalMicros, tiebreak } = cursorBytes(cursor);
      const row = rows.find((r) => r.request_id === entry.request_id)!;
      // Exactly the entry's own arrival (arrived_at to the millisecond) and its own tiebreak: nothing of anyone else.
      expect(arrivalMicros).toBe(BigInt(row.arrival_micros));
      expect(Number(arrivalMicros / 1000n)).toBe(Date.parse(entry.arrived_at));
      expect(tiebreak).toBe(BigInt(row.tiebreak));
    }
    // And the journal keeps no number shared by sandboxes: no sequence, no identity column.
    const shared = await t.app
      .get(DataSource)
      .query(`SELECT column_name FROM information_schema.columns WHERE table_name = 'journal_entry' AND table_schema = current_schema() AND (is_identity = 'YES' OR column_default LIKE 'nextval%')`);
    expect(shared).toEqual([]);
  });

  it('contract §14: the cursor of a page is the same whatever another sandbox did in between', async () => {
    const a = await newSandbox();
    const b = await newSandbox();
    for (let i = 0; i < 3; i++) await hit(a.view, newRequestId(`a${i}`));
    await flush();
    const before = await list(a.view, { limit: 2 });
    for (let i = 0; i < 20; i++) await hit(b.view, newRequestId('b'));
    await hit(t, newRequestId('default'));
    await flush();
    expect(await list(a.view, { limit: 2 })).toEqual(before);
  });

  it('contract §14: every entry carries arrived_at, and the list is newest first by arrival — not by when answers finished or were written', async () => {
    const { view } = await newSandbox();
    const held = newRequestId('held');
    const quick = newRequestId('quick');
    let release!: () => void;
    HeldRequestController.release = new Promise((resolve) => (release = resolve));
    const entered = new Promise<void>((resolve) => (HeldRequestController.entered = resolve));
    // The held request arrives first and waits in its handler.
    const heldAnswer = view.http.post('/test-only/arrival/held').set('X-Request-Id', held).send({}).then((res) => res);
    await entered;
    // The quick one arrives second, is answered, and is written first.
    await hit(view, quick);
    await flush();
    release();
    expect((await heldAnswer).status).toBe(201);
    await flush();

    const page = await list(view);
    expect(ids(page)).toEqual([quick, held]);
    for (const entry of page.entries) expect(entry.arrived_at).toEqual(new Date(entry.arrived_at).toISOString());
    expect(Date.parse(page.entries[0].arrived_at)).toBeGreaterThanOrEqual(Date.parse(page.entries[1].arrived_at));
    // The caller's own read is in the same order, with arrived_at too.
    const tpp = new Psd2Client(view, await certificate(['PSP_AI']));
    const own = [newRequestId('own-1'), newRequestId('own-2')];
    for (const id of own) await view.http.get('/v2/accounts').set(tpp.headers({ 'X-Request-Id': id, Authorization: 'Bearer nope' })).expect(401);
    await flush();
    const ownPage: Page = (await view.http.get('/sandbox/requests').set(tpp.headers()).expect(200)).body;
    expect(ids(ownPage)).toEqual([...own].reverse());
    expect(ownPage.entries.every((entry) => typeof entry.arrived_at === 'string')).toBe(true);
  });

  it('contract §14: since and until are real arrival times, not the sandbox clock; arrival, not `at`, orders the list', async () => {
    const { view } = await newSandbox();
    const realBefore = new Date(Date.now() - 1000).toISOString();
    const day = 86_400_000;
    const future = newRequestId('clock-ahead');
    const past = newRequestId('clock-behind');
    await view.clock.set(new Date(Date.now() + 30 * day).toISOString(), true);
    await hit(view, future);
    await view.clock.set(new Date(Date.now() - 30 * day).toISOString(), true);
    await hit(view, past);
    await flush();

    const all = await list(view, { since: realBefore });
    expect(ids(all)).toEqual([past, future]);
    // `at` says otherwise: the later arrival was made with the earlier sandbox clock.
    expect(Date.parse(all.entries[0].at)).toBeLessThan(Date.parse(all.entries[1].at));
    expect(ids(await list(view, { until: realBefore }))).toEqual([]);
    expect(ids(await list(view, { since: new Date(Date.now() + 29 * day).toISOString() }))).toEqual([]);
    expect(ids(await list(view, { until: new Date(Date.now() - 29 * day).toISOString() }))).toEqual([]);
    // Between the two arrivals (a clock change apart, so milliseconds at least): one on each side.
    const between = new Date(Date.parse(all.entries[1].arrived_at) + 1).toISOString();
    expect(ids(await list(view, { since: between }))).toEqual([past]);
    expect(ids(await list(view, { until: between }))).toEqual([future]);
  });

  it('contract §14: paging is complete and without duplicates while new entries arrive between pages', async () => {
    const { view } = await newSandbox();
    for (let i = 0; i < 7; i++) await hit(view, newRequestId(`p${i}`));
    await flush();
    const snapshot = ids(await list(view, { limit: 500 }));
    expect(snapshot).toHaveLength(7);
    const walked: string[] = [];
    let after: string | undefined;
    do {
      const page = await list(view, { limit: 2, ...(after ? { after } : {}) });
      walked.push(...ids(page));
      after = page.next_after;
      // Newer entries arrive meanwhile: they are above the first page, never inside the walk.
      await hit(view, newRequestId('meanwhile'));
      await hit(view, newRequestId('meanwhile'));
      await flush();
    } while (after !== undefined);
    expect(walked).toEqual(snapshot);
    expect(new Set(walked).size).toBe(walked.length);
  });

  it.each([
    ['a number (the old sequence)', '1042'],
    ['too short', 'AAZhAsYCKkARIhD0femBF'],
    ['not base64url', 'AAZhAsYCKkARIhD0femBF+'],
    ['not the form the service writes (padding bits set)', 'AAZhAsYCKkARIhD0femBFR'],
    ['an arrival past year 9999', '__________8AAAAAAAAAAA'],
    ['a negative tiebreak', 'AAZhAsYCKkD__________w'],
  ])('contract §14: an after that is %s is 400 VALIDATION_FAILED naming after, on both reads', async (_what, after) => {
    const tpp = new Psd2Client(t, await certificate(['PSP_AI']));
    expectValidationFailed(await t.admin.get('/admin/requests').query({ after }), 'after');
    expectValidationFailed(await t.http.get('/sandbox/requests').set(tpp.headers()).query({ after }), 'after');
  });
});
