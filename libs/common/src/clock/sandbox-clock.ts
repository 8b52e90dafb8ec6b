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

  async refresh(): Promise<void> {
    await this.adopt((realNow) => this.repository.read().then((state) => ({ state, realNow })));
  }

  async set(now: Date, frozen: boolean): Promise<void> {
    await this.adopt((realNow) => this.repository.set(now, new Date(realNow), frozen).then((state) => ({ state, realNow })));
  }

  async advance(seconds: number): Promise<void> {
    await this.adopt((realNow) => this.repository.advance(seconds, new Date(realNow)).then((state) => ({ state, realNow })));
  }

  async reset(): Promise<void> {
    await this.adopt((realNow) => this.repository.reset().then((state) => ({ state, realNow })));
  }

  private async adopt(operation: (realNowMs: number) => Promise<{ state: ClockState; realNow: number }>): Promise<void> {
    const ticket = ++this.issued;
    const { state, realNow } = await operation(Date.now());
    // A slow read that began before a later change of ours must not undo it.
    if (ticket < this.adopted) return;
    this.adopted = ticket;
    this.state = state;
    this.readAtMs = realNow;
  }
}
