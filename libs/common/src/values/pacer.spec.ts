import { Pacer } from './pacer';

/** Holds the thread `ms` (a slice of a long task's work). */
const work = (ms: number): void => {
  const end = performance.now() + ms;
  while (performance.now() < end);
};

describe('Pacer: long tasks share the event loop (contract §2, bounded work)', () => {
  it('resumes one long task per turn of the event loop, however many wait, each in its turn', async () => {
    let turn = 0;
    let done = false;
    const tick = (): void => {
      turn++;
      if (!done) setImmediate(tick);
    };
    setImmediate(tick);
    const resumedAt: Array<{ task: number; turn: number }> = [];
    const task = async (id: number): Promise<void> => {
      const pacer = new Pacer();
      for (let step = 0; step < 4; step++) {
        work(6);
        await pacer.pace();
        resumedAt.push({ task: id, turn });
      }
    };
    await Promise.all([task(1), task(2), task(3)]);
    done = true;
    expect(resumedAt).toHaveLength(12);
    expect(new Set(resumedAt.map((r) => r.turn)).size).toBe(12);
    // First come, first served: the tasks take their turns in the order they asked.
    expect(resumedAt.slice(0, 3).map((r) => r.task)).toEqual([1, 2, 3]);
  });

  it('lets a task run on without waiting while its slice lasts', async () => {
    const pacer = new Pacer();
    let resumedSynchronously = true;
    setImmediate(() => (resumedSynchronously = false));
    await pacer.pace();
    expect(resumedSynchronously).toBe(true);
  });
});
