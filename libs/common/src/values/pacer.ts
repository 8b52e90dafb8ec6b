/**
 * How long one request's long task (parsing, walking or validating a large body) may hold the event
 * loop before it lets other work run (contract §2, bounded work: other requests are answered as fast
 * as without it). Scheduling, not a rule of the sandbox: real time is right here.
 */
const SLICE_MS = 5;

/** Long tasks waiting for their next slice, first come first served. */
const waiting: Array<() => void> = [];
let turnScheduled = false;

/**
 * One long task resumes per turn of the event loop (its check phase), whatever the number waiting:
 * several large bodies at once share one slice a turn rather than each taking one, so a turn stays
 * short and the other requests' I/O is served between slices.
 */
function nextTurn(): void {
  turnScheduled = false;
  waiting.shift()?.();
  if (waiting.length > 0) scheduleTurn();
}

function scheduleTurn(): void {
  if (turnScheduled) return;
  turnScheduled = true;
  setImmediate(nextTurn);
}

/** One long task's turns: `pace()` between steps waits for its next turn once a slice has passed. */
export class Pacer {
  private lastYield = performance.now();

  /** Whether a slice has passed since the last turn (cheap: call it every step). */
  get due(): boolean {
    return performance.now() - this.lastYield >= SLICE_MS;
  }

  async pace(): Promise<void> {
    if (!this.due) return;
    await new Promise<void>((resume) => {
      waiting.push(resume);
      scheduleTurn();
    });
    this.lastYield = performance.now();
  }
}
