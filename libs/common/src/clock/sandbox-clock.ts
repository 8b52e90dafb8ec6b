import { Injectable } from '@nestjs/common';
import { SandboxGenerations } from '../sandbox/sandbox-cache';
import { SandboxChangeListener, SandboxChanges } from '../sandbox/sandbox-changes';
import { SandboxContext } from '../sandbox/sandbox-context';
import { Clock } from './clock';
import { ClockRepository } from './clock.repository';
import { ClockState, REAL_TIME, sandboxNow } from './clock-state';

/** Bounded: a flood of sandboxes costs memory up to this many entries (the oldest goes first). */
const CAPACITY = 10_000;

/** This instance's copy of one sandbox's clock row and generation. */
class CachedSandbox {
  state: ClockState = REAL_TIME;
  generation = '0';
  downtimeCalendar: boolean | null = null;
  /** Counts the changes SandboxChanges reported; the copy is current when read after the last one. */
  changesSeen = 0;
  readAfterChange = -1;
  inFlight: Promise<void> | null = null;
  /** Orders reads and changes: an answer older than the one adopted is dropped. */
  issued = 0;
  adopted = 0;
}

/**
 * The sandbox clock of contract §6, one per sandbox (§13): every method acts on the context's
 * sandbox (SandboxContext), and throws outside one. `now()` is synchronous and computed from a
 * cached copy of that sandbox's clock row; `sync()`, called at the start of every request and job
 * run, reads the row once and again only after SandboxChanges reports a change to it (one read of
 * the change log a second serves every sandbox), so the cost does not grow with the number of
 * sandboxes and idle instances cost the database nothing. The instance that changes a clock adopts
 * the new row at once. The same read brings the sandbox's generation, which keys the in-process
 * caches (SandboxCache).
 */
@Injectable()
export class SandboxClock extends Clock implements SandboxGenerations, SandboxChangeListener {
  private readonly sandboxes = new Map<string, CachedSandbox>();

  constructor(
    private readonly repository: ClockRepository,
    private readonly changes: SandboxChanges,
  ) {
    super();
    changes.subscribe(this);
  }

  /**
   * Marks the copies stale; they stay readable (a request that already synced keeps its sandbox's
   * time) until the next sync reads them again. A deleted sandbox's copy is never read again and
   * leaves with the oldest past CAPACITY.
   */
  sandboxesChanged(sandboxIds: ReadonlySet<string> | null): void {
    if (sandboxIds === null) for (const cached of this.sandboxes.values()) cached.changesSeen++;
    else
      for (const sandboxId of sandboxIds) {
        const cached = this.sandboxes.get(sandboxId);
        if (cached) cached.changesSeen++;
      }
  }

  now(): Date {
    return sandboxNow(this.cached().state, Date.now());
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

  /** Re-reads the clock row if it changed since this instance read it; concurrent callers share one read. */
  async sync(): Promise<void> {
    const changes = this.changes.sync();
    if (changes) await changes;
    const cached = this.cached();
    if (cached.readAfterChange === cached.changesSeen) return;
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

  set(now: Date, frozen: boolean): Promise<void> {
    return this.adopt((realNow) => this.repository.set(now, realNow, frozen));
  }

  advance(seconds: number): Promise<void> {
    return this.adopt((realNow) => this.repository.advance(seconds, realNow));
  }

  reset(): Promise<void> {
    return this.adopt(() => this.repository.reset());
  }

  /** The context's sandbox's copy (real time until first read). */
  private cached(): CachedSandbox {
    const { sandboxId } = SandboxContext.current();
    let cached = this.sandboxes.get(sandboxId);
    if (!cached) {
      if (this.sandboxes.size >= CAPACITY) this.sandboxes.delete(this.sandboxes.keys().next().value as string);
      cached = new CachedSandbox();
      this.sandboxes.set(sandboxId, cached);
    }
    return cached;
  }

  private async adopt(operation: (realNow: Date) => Promise<ClockState>): Promise<void> {
    const cached = this.cached();
    const ticket = ++cached.issued;
    const changesSeen = cached.changesSeen;
    const state = await operation(new Date());
    // A slow read that began before a later change of ours must not undo it.
    if (ticket < cached.adopted) return;
    cached.adopted = ticket;
    cached.state = state;
    // A change reported while this read ran may postdate it: then the copy stays stale.
    cached.readAfterChange = changesSeen;
  }
}
