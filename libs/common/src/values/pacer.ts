/**
 * How long one request's long task (parsing, walking or validating a large body) may hold the event
 * loop before it lets other work run (contract §2, bounded work: other requests are answered as fast
 * as without it). Short, for several such tasks may each run a slice in one turn of the loop.
 * Scheduling, not a rule of the sandbox: real time is right here.
 */
const SLICE_MS = 5;

/** One long task's turns: `pace()` between steps yields to the event loop once a slice has passed. */
export class Pacer {
  private lastYield = performance.now();

  /** Whether a slice has passed since the last turn (cheap: call it every step). */
  get due(): boolean {
    return performance.now() - this.lastYield >= SLICE_MS;
  }

  async pace(): Promise<void> {
    if (!this.due) return;
    await new Promise((resolve) => setImmediate(resolve));
    this.lastYield = performance.now();
  }
}
