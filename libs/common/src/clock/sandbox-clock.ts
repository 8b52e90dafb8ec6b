import { Injectable } from '@nestjs/common';
import { SandboxGenerations } from '../sandbox/sandbox-cache';
import { SandboxContext } from '../sandbox/sandbox-context';
import { Clock } from './clock';
import { ClockRepository, DatabaseTime, SandboxRead } from './clock.repository';
import { ClockState, REAL_TIME, sandboxNow } from './clock-state';

/** Other instances see a change within this long (contract §6: within one second). */
const MAX_STALENESS_MS = 900;

/** This instance's copy of one sandbox's clock row and generation. */
class CachedSandbox {
  state: ClockState = REAL_TIME;
  generation = '0';
  downtimeCalendar: boolean | null = null;
  readAtMs = Number.NEGATIVE_INFINITY;
  inFlight: Promise<void> | null = null;
  /** Orders reads and changes: an answer older than the one adopted is dropped. */
  issued = 0;
  adopted = 0;
}

/**
 * The sandbox clock of contract §6, one per sandbox (§13): every method acts on the context's
 * sandbox (SandboxContext), and throws outside one. `now()` is synchronous and computed from a
 * cached copy of that sandbox's clock row; `sync()` refreshes the copy when it is older than
 * MAX_STALENESS_MS and is called at the start of every request and job run, so idle instances
 * cost the database nothing. The instance that changes a clock adopts the new row at once. The
 * same read brings the sandbox's generation, which keys the in-process caches (SandboxCache).
 */
@Injectable()
export class SandboxClock extends Clock implements SandboxGenerations {
  private readonly sandboxes = new Map<string, CachedSandbox>();
  /**
   * The database's clock minus this process's, as last measured: the clock anchors are the
   * database's clock_timestamp() (so the set-based job queries agree with requests), and real now
   * here is read on the same clock.
   */
  private databaseOffsetMs = 0;

  constructor(private readonly repository: ClockRepository) {
    super();
  }

  now(): Date {
    return sandboxNow(this.cached().state, Date.now() + this.databaseOffsetMs);
  }

  get frozen(): boolean {
    return this.cached().state.frozen;
  }

  get generation(): string {
    return this.cached().generation;
  }

  /** The sandbox's own planned-downtime setting as last read (null: the service's DOWNTIME_CALENDAR). */
  get downtimeCalendar(): boolean | null {
    return this.cached().downtimeCalendar;
  }

  /** Re-reads the clock row if the cached copy may be stale; concurrent callers share one read. */
  async sync(): Promise<void> {
    const cached = this.cached();
    if (Date.now() - cached.readAtMs < MAX_STALENESS_MS) return;
    cached.inFlight ??= this.refresh().finally(() => (cached.inFlight = null));
    return cached.inFlight;
  }

  refresh(): Promise<void> {
    return this.adopt(async () => {
      const read = await this.repository.read();
      // A read brings the generation; a change (set, advance, reset) keeps the last one read.
      if (read.generation !== undefined) Object.assign(this.cached(), { generation: read.generation, downtimeCalendar: read.downtimeCalendar });
      return read;
    });
  }

  /**
   * Takes the context's sandbox's clock row as read elsewhere at `readAtMs` (process time): a job
   * pass reads it with the due work, so the sync() that follows costs nothing while the copy is
   * fresh. A copy older than the one in hand is ignored.
   */
  adoptRead(read: SandboxRead, readAtMs: number): void {
    const cached = this.cached();
    if (readAtMs <= cached.readAtMs) return;
    // The database clock's offset stays as measured by this instance's own reads (round trips it times).
    const state: ClockState = { sandboxAnchor: read.sandboxAnchor, realAnchor: read.realAnchor, frozen: read.frozen };
    const { generation, downtimeCalendar } = read;
    // Orders it after any read or change in flight, as a change of ours would be.
    cached.adopted = ++cached.issued;
    Object.assign(cached, { state, generation, downtimeCalendar, readAtMs });
  }

  set(now: Date, frozen: boolean): Promise<void> {
    return this.adopt(() => this.repository.set(now, frozen));
  }

  advance(seconds: number): Promise<void> {
    return this.adopt(() => this.repository.advance(seconds));
  }

  reset(): Promise<void> {
    return this.adopt(() => this.repository.reset());
  }

  /** The context's sandbox's copy (real time until first read). */
  private cached(): CachedSandbox {
    const { sandboxId } = SandboxContext.current();
    let cached = this.sandboxes.get(sandboxId);
    if (!cached) {
      cached = new CachedSandbox();
      this.sandboxes.set(sandboxId, cached);
    }
    return cached;
  }

  private async adopt(operation: () => Promise<DatabaseTime>): Promise<void> {
    const cached = this.cached();
    const ticket = ++cached.issued;
    const realNowMs = Date.now();
    const { dbNow, ...state } = await operation();
    // The database read its clock between our two readings: the midpoint is the best guess of when.
    if (dbNow) this.databaseOffsetMs = dbNow.getTime() - (realNowMs + Date.now()) / 2;
    // A slow read that began before a later change of ours must not undo it.
    if (ticket < cached.adopted) return;
    cached.adopted = ticket;
    cached.state = state;
    cached.readAtMs = realNowMs;
  }
}
