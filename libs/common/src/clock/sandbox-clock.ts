import { Injectable } from '@nestjs/common';
import { Clock } from './clock';
import { ClockRepository } from './clock.repository';
import { ClockState, REAL_TIME, sandboxNow } from './clock-state';

/** Other instances see a change within this long (contract §6: within one second). */
const MAX_STALENESS_MS = 900;

/**
 * The sandbox clock of contract §6. `now()` is synchronous and computed from a cached copy of the
 * clock row; `sync()` refreshes the copy when it is older than MAX_STALENESS_MS and is called at the
 * start of every request and job run, so idle instances cost the database nothing. The instance that
 * changes the clock adopts the new row at once.
 */
@Injectable()
export class SandboxClock extends Clock {
  private state: ClockState = REAL_TIME;
  private readAtMs = Number.NEGATIVE_INFINITY;
  private inFlight: Promise<void> | null = null;
  /** Orders reads and changes: an answer older than the one adopted is dropped. */
  private issued = 0;
  private adopted = 0;

  constructor(private readonly repository: ClockRepository) {
    super();
  }

  now(): Date {
    return sandboxNow(this.state, Date.now());
  }

  get frozen(): boolean {
    return this.state.frozen;
  }

  /** Re-reads the clock row if the cached copy may be stale; concurrent callers share one read. */
  async sync(): Promise<void> {
    if (Date.now() - this.readAtMs < MAX_STALENESS_MS) return;
    this.inFlight ??= this.refresh().finally(() => (this.inFlight = null));
    return this.inFlight;
  }

  refresh(): Promise<void> {
    return this.adopt(() => this.repository.read());
  }

  set(now: Date, frozen: boolean): Promise<void> {
    return this.adopt((realNow) => this.repository.set(now, realNow, frozen));
  }

  advance(seconds: number): Promise<void> {
    return this.adopt((realNow) => this.repository.advance(seconds, realNow));
  }

  reset(): Promise<void> {
    return this.adopt(() => this.repository.reset());
  }

  private async adopt(operation: (realNow: Date) => Promise<ClockState>): Promise<void> {
    const ticket = ++this.issued;
    const realNowMs = Date.now();
    const state = await operation(new Date(realNowMs));
    // A slow read that began before a later change of ours must not undo it.
    if (ticket < this.adopted) return;
    this.adopted = ticket;
    this.state = state;
    this.readAtMs = realNowMs;
  }
}
