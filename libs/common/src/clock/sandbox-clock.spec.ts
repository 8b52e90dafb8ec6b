import { jest } from '@jest/globals';
import type { ClockRepository } from './clock.repository';
import { ClockState, REAL_TIME, sandboxNow } from './clock-state';
import type { SandboxChangeListener, SandboxChanges } from '../sandbox/sandbox-changes';
import { SandboxContext } from '../sandbox/sandbox-context';
import { DeletedSandbox } from '../sandbox/sandbox-registry';
import { SandboxClock } from './sandbox-clock';

/** A repository that holds the row in memory and counts reads. */
function fakeRepository(initial: ClockState = REAL_TIME) {
  let row = initial;
  const calls = { read: 0 };
  const repository = {
    read: () => {
      calls.read++;
      return Promise.resolve(row);
    },
    // The database anchors real time itself (clock_timestamp()); here the process clock stands in.
    set: (sandboxNowAt: Date, frozen: boolean) => Promise.resolve((row = { sandboxAnchor: sandboxNowAt, realAnchor: new Date(), frozen })),
    advance: () => Promise.resolve(row),
    reset: () => Promise.resolve((row = REAL_TIME)),
    /** Another instance changes the row behind our back. */
    replace: (state: ClockState) => (row = state),
  };
  return { repository, calls };
}

/** An answer the test gives when it chooses: a statement still running on another connection. */
function pending<T>() {
  let answer: (value: T) => void = () => undefined;
  const promise = new Promise<T>((resolve) => (answer = resolve));
  return { promise, answer: (value: T) => answer(value) };
}

/** The row a change of these cases commits. */
const CHANGED = { sandboxAnchor: new Date('2026-12-11T09:00:00Z'), realAnchor: new Date(), frozen: true } satisfies ClockState;

/** The change log as SandboxChanges reports it: `report` plays a change seen in the log. */
function fakeChanges() {
  const listeners: SandboxChangeListener[] = [];
  const changes = {
    subscribe: (listener: SandboxChangeListener) => listeners.push(listener),
    sync: (): Promise<void> | undefined => undefined,
    report: (sandboxIds: string[] | null) => listeners.forEach((listener) => listener.sandboxesChanged(sandboxIds && new Set(sandboxIds))),
  };
  return changes as typeof changes & SandboxChanges;
}

/** Each case runs as one sandbox, as a request or a job run does (contract §13). */
const inDefault = (body: () => Promise<void> | void) => async () => {
  await SandboxContext.run('default', body);
};

describe(SandboxClock.name, () => {
  afterEach(() => jest.useRealTimers());

  it('computes now = sandbox_anchor + (frozen ? 0 : real now − real_anchor) (contract §6)', inDefault(() => {
    const anchor = new Date('2026-11-24T09:00:00Z');
    const real = new Date('2030-01-01T00:00:00Z');
    expect(sandboxNow({ sandboxAnchor: anchor, realAnchor: real, frozen: false }, real.getTime() + 5000).toISOString()).toBe('2026-11-24T09:00:05.000Z');
    expect(sandboxNow({ sandboxAnchor: anchor, realAnchor: real, frozen: true }, real.getTime() + 5000).toISOString()).toBe('2026-11-24T09:00:00.000Z');
    expect(sandboxNow(REAL_TIME, 1234).getTime()).toBe(1234);
  }));

  it('reads the row once, and again only after the change log reports a change to it (contract §6, §13)', inDefault(async () => {
    const { repository, calls } = fakeRepository();
    const changes = fakeChanges();
    const clock = new SandboxClock(repository as unknown as ClockRepository, changes);
    await clock.sync();
    await clock.sync();
    expect(calls.read).toBe(1);
    repository.replace({ sandboxAnchor: new Date('2020-01-01T00:00:00Z'), realAnchor: new Date(), frozen: true });
    changes.report(['another-sandbox']);
    await clock.sync();
    expect(calls.read).toBe(1);
    // Until the next sync the stale copy still answers: a request that already synced keeps its time.
    changes.report(['default']);
    expect(clock.now().getFullYear()).toBeGreaterThan(2020);
    await clock.sync();
    expect(calls.read).toBe(2);
    expect(clock.now().toISOString()).toBe('2020-01-01T00:00:00.000Z');
    changes.report(null);
    await clock.sync();
    expect(calls.read).toBe(3);
  }));

  it('a change reported while a read runs leaves the copy stale: the next sync reads again', inDefault(async () => {
    const { repository, calls } = fakeRepository();
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const changes = fakeChanges();
    const clock = new SandboxClock({ ...repository, read: () => gate.then(() => repository.read()) } as unknown as ClockRepository, changes);
    const reading = clock.sync();
    await Promise.resolve();
    changes.report(['default']);
    release();
    await reading;
    await clock.sync();
    expect(calls.read).toBe(2);
  }));

  it('shares one read among concurrent callers', inDefault(async () => {
    const { repository, calls } = fakeRepository();
    const clock = new SandboxClock(repository as unknown as ClockRepository, fakeChanges());
    await Promise.all([clock.sync(), clock.sync(), clock.sync()]);
    expect(calls.read).toBe(1);
  }));

  it('sees its own change at once, without waiting for a re-read (contract §6)', inDefault(async () => {
    const { repository, calls } = fakeRepository();
    const clock = new SandboxClock(repository as unknown as ClockRepository, fakeChanges());
    await clock.sync();
    await clock.set(new Date('2026-01-01T00:00:00Z'), true);
    await clock.sync();
    expect(calls.read).toBe(1);
    expect(clock.now().toISOString()).toBe('2026-01-01T00:00:00.000Z');
    expect(clock.frozen).toBe(true);
  }));

  it('ignores a read that started before its own later change', inDefault(async () => {
    const { repository } = fakeRepository();
    let release: (state: ClockState) => void = () => undefined;
    const slowRead = new Promise<ClockState>((resolve) => (release = resolve));
    const clock = new SandboxClock({ ...repository, read: () => slowRead } as unknown as ClockRepository, fakeChanges());
    const reading = clock.sync();
    await clock.set(new Date('2026-01-01T00:00:00Z'), true);
    release(REAL_TIME);
    await reading;
    expect(clock.now().toISOString()).toBe('2026-01-01T00:00:00.000Z');
  }));

  it('keeps its own change when a read that began during it answers first, with the row as it was before the change (contract §6)', inDefault(async () => {
    const { repository } = fakeRepository();
    const set = pending<ClockState>();
    const clock = new SandboxClock({ ...repository, set: () => set.promise } as unknown as ClockRepository, fakeChanges());
    const setting = clock.set(CHANGED.sandboxAnchor, true);
    // A request's read on another connection, before the change commits: the old row.
    await clock.refresh();
    set.answer(CHANGED);
    await setting;
    expect(clock.now().toISOString()).toBe('2026-12-11T09:00:00.000Z');
    expect(clock.frozen).toBe(true);
  }));

  it('does not take a read that began while its change ran, even when it answers after the change (contract §6)', inDefault(async () => {
    const { repository } = fakeRepository();
    const set = pending<ClockState>();
    const read = pending<ClockState>();
    const clock = new SandboxClock({ ...repository, set: () => set.promise, read: () => read.promise } as unknown as ClockRepository, fakeChanges());
    const setting = clock.set(CHANGED.sandboxAnchor, true);
    const reading = clock.refresh();
    set.answer(CHANGED);
    await setting;
    read.answer(REAL_TIME);
    await reading;
    expect(clock.now().toISOString()).toBe('2026-12-11T09:00:00.000Z');
  }));

  it('does not take a job pass\'s read from before or during its own change (contract §6, §13 Time and jobs)', inDefault(async () => {
    const { repository } = fakeRepository();
    const set = pending<ClockState>();
    const clock = new SandboxClock({ ...repository, set: () => set.promise } as unknown as ClockRepository, fakeChanges());
    const setting = clock.set(CHANGED.sandboxAnchor, true);
    const old = { sandboxAnchor: new Date('2020-01-01T00:00:00Z'), realAnchor: new Date(), frozen: true, generation: '1', downtimeCalendar: null };
    clock.adoptRead(old, Date.now());
    set.answer(CHANGED);
    await setting;
    clock.adoptRead(old, Date.now() - 10);
    expect(clock.now().toISOString()).toBe('2026-12-11T09:00:00.000Z');
  }));

  it('after two changes that overlapped, reads the row at the next sync: they may have committed in either order (contract §6)', inDefault(async () => {
    const { repository, calls } = fakeRepository();
    const commits: Array<(state: ClockState) => void> = [];
    const clock = new SandboxClock({ ...repository, set: () => new Promise<ClockState>((resolve) => commits.push(resolve)) } as unknown as ClockRepository, fakeChanges());
    await clock.sync();
    const first = clock.set(new Date('2026-12-01T00:00:00Z'), true);
    const second = clock.set(new Date('2026-12-02T00:00:00Z'), true);
    // The database committed the second first, so the first is what it holds.
    repository.replace({ sandboxAnchor: new Date('2026-12-01T00:00:00Z'), realAnchor: new Date(), frozen: true });
    commits[1]({ sandboxAnchor: new Date('2026-12-02T00:00:00Z'), realAnchor: new Date(), frozen: true });
    commits[0]({ sandboxAnchor: new Date('2026-12-01T00:00:00Z'), realAnchor: new Date(), frozen: true });
    await Promise.all([first, second]);
    const readsBefore = calls.read;
    await clock.sync();
    expect(calls.read).toBe(readsBefore + 1);
    expect(clock.now().toISOString()).toBe('2026-12-01T00:00:00.000Z');
  }));

  it('keeps one clock per sandbox: moving one moves nothing in another (contract §6, §13)', async () => {
    const rows = new Map<string, ClockState>();
    const repository = {
      read: () => Promise.resolve({ ...(rows.get(SandboxContext.sandboxId) ?? REAL_TIME), generation: '1' }),
      set: (at: Date, frozen: boolean) => {
        const state = { sandboxAnchor: at, realAnchor: new Date(), frozen };
        rows.set(SandboxContext.sandboxId, state);
        return Promise.resolve(state);
      },
    };
    const clock = new SandboxClock(repository as unknown as ClockRepository, fakeChanges());
    await SandboxContext.run('a', () => clock.set(new Date('2020-01-01T00:00:00Z'), true));
    await SandboxContext.run('b', () => clock.sync());
    expect(SandboxContext.run('a', () => clock.now().toISOString())).toBe('2020-01-01T00:00:00.000Z');
    expect(SandboxContext.run('b', () => clock.frozen)).toBe(false);
    expect(Math.abs(SandboxContext.run('b', () => clock.now().getTime()) - Date.now())).toBeLessThan(1000);
  });

  it('reads real now on the database clock, which anchors the sandbox time, so a process clock off by minutes does not move it (contract §6, §13 Time and jobs)', inDefault(async () => {
    // The database is 5 minutes ahead of this process; its anchor says the sandbox read 12:00:00 at its 10:00:00.
    const databaseAhead = 5 * 60_000;
    const repository = {
      read: () =>
        Promise.resolve({
          sandboxAnchor: new Date('2030-01-01T12:00:00Z'),
          realAnchor: new Date(Date.now() + databaseAhead - 10_000),
          frozen: false,
          generation: '1',
          downtimeCalendar: null,
          dbNow: new Date(Date.now() + databaseAhead),
        }),
    };
    const clock = new SandboxClock(repository as unknown as ClockRepository, fakeChanges());
    await clock.sync();
    // 10 s of real time have passed since the anchor on the database's clock (not 5 min 10 s).
    expect(Math.abs(clock.now().getTime() - new Date('2030-01-01T12:00:10Z').getTime())).toBeLessThan(500);
  }));

  it('takes the clock row a job pass read with its due work: no read of its own while that copy is fresh, and never an older copy (contract §13 Time and jobs)', inDefault(async () => {
    const { repository, calls } = fakeRepository();
    const clock = new SandboxClock(repository as unknown as ClockRepository, fakeChanges());
    const claimed = { sandboxAnchor: new Date('2031-01-01T00:00:00Z'), realAnchor: new Date(), frozen: true, generation: '3', downtimeCalendar: false };
    clock.adoptRead(claimed, Date.now());
    await clock.sync();
    expect(calls.read).toBe(0);
    expect(clock.now().toISOString()).toBe('2031-01-01T00:00:00.000Z');
    expect(clock.generation).toBe('3');
    // A copy read before the one in hand changes nothing.
    clock.adoptRead({ ...claimed, sandboxAnchor: new Date('2020-01-01T00:00:00Z') }, Date.now() - 5000);
    expect(clock.now().toISOString()).toBe('2031-01-01T00:00:00.000Z');
    // One read longer ago than a second is stale: sync reads the row.
    const stale = new SandboxClock(repository as unknown as ClockRepository, fakeChanges());
    stale.adoptRead(claimed, Date.now() - 1000);
    await stale.sync();
    expect(calls.read).toBe(1);
  }));

  it('throws outside any sandbox context rather than read the default sandbox clock (contract §13)', () => {
    const { repository } = fakeRepository();
    const clock = new SandboxClock(repository as unknown as ClockRepository, fakeChanges());
    expect(() => clock.now()).toThrow(/No sandbox context/);
  });
  describe('a deleted sandbox leaves nothing behind (contract §13 Lifecycle)', () => {
    const copies = (clock: SandboxClock) => clock['sandboxes'].size;

    it('forget drops its copy at once and tells the caches keyed by its generation', async () => {
      const { repository } = fakeRepository();
      const clock = new SandboxClock(repository as unknown as ClockRepository, fakeChanges());
      const told: string[] = [];
      clock.onForget((sandboxId) => told.push(sandboxId));
      await SandboxContext.run('a', () => clock.sync());
      await SandboxContext.run('b', () => clock.sync());
      clock.forget('a');
      expect(copies(clock)).toBe(1);
      expect(told).toEqual(['a']);
    });

    it('drops its copy when its read finds the sandbox gone (deleted on another instance)', async () => {
      const { repository } = fakeRepository();
      let deleted = false;
      const clock = new SandboxClock({ ...repository, read: () => (deleted ? Promise.reject(new DeletedSandbox()) : repository.read()) } as unknown as ClockRepository, fakeChanges());
      const told: string[] = [];
      clock.onForget((sandboxId) => told.push(sandboxId));
      await SandboxContext.run('a', () => clock.sync());
      deleted = true;
      await expect(SandboxContext.run('a', () => clock.refresh())).rejects.toBeInstanceOf(DeletedSandbox);
      expect(copies(clock)).toBe(0);
      expect(told).toEqual(['a']);
      // Reading the time of a sandbox not read (a request finishing) keeps nothing either.
      SandboxContext.run('a', () => clock.now());
      expect(copies(clock)).toBe(0);
    });

    it('holds at most 10 000 copies beyond those used within the last minute, the least recently used going first', async () => {
      jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'], now: new Date('2026-11-24T09:00:00Z') });
      const { repository } = fakeRepository();
      const clock = new SandboxClock(repository as unknown as ClockRepository, fakeChanges());
      for (let i = 0; i < 10_005; i++) await SandboxContext.run(`s${i}`, () => clock.sync());
      // All used within the minute: none goes while a request may still hold it.
      expect(copies(clock)).toBe(10_005);
      jest.advanceTimersByTime(60_000);
      await SandboxContext.run('s0', () => clock.sync());
      await SandboxContext.run('new', () => clock.sync());
      expect(copies(clock)).toBe(10_000);
      expect(clock['sandboxes'].has('s0')).toBe(true);
      expect(clock['sandboxes'].has('s1')).toBe(false);
    });

    it('moves a copy to the recent end at most once a second (issue 19: not a map reallocation per request)', async () => {
      jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'], now: new Date('2026-11-24T09:00:00Z') });
      const { repository } = fakeRepository();
      const clock = new SandboxClock(repository as unknown as ClockRepository, fakeChanges());
      const order = () => [...clock['sandboxes'].keys()];
      await SandboxContext.run('a', () => clock.sync());
      await SandboxContext.run('b', () => clock.sync());
      jest.advanceTimersByTime(999);
      await SandboxContext.run('a', () => clock.sync());
      expect(order()).toEqual(['a', 'b']);
      jest.advanceTimersByTime(1);
      await SandboxContext.run('a', () => clock.sync());
      expect(order()).toEqual(['b', 'a']);
    });
  });
});
