import { Injectable } from '@nestjs/common';
import { SandboxGenerations } from '../sandbox/sandbox-cache';
import { SandboxChangeListener, SandboxChanges } from '../sandbox/sandbox-changes';
import { SandboxContext } from '../sandbox/sandbox-context';
import { DeletedSandbox } from '../sandbox/sandbox-registry';
import { Clock } from './clock';
import { ClockRepository } from './clock.repository';
import { ClockState, REAL_TIME, sandboxNow } from './clock-state';

/**
 * Past this many sandboxes the least recently used copies go, but only those unused for IDLE_MS
 * (a request in progress keeps its copy), so the map holds at most CAPACITY plus the sandboxes used
 * within the last minute. A sandbox whose copy went is simply read again.
 */
const CAPACITY = 10_000;
const IDLE_MS = 60_000;

/** This instance's copy of one sandbox's clock row and generation. */
class CachedSandbox {
  state: ClockState = REAL_TIME;
  generation = '0';
  downtimeCalendar: boolean | null = null;
  /** Counts the changes SandboxChanges reported; the copy is current when read after the last one. */
  changesSeen = 0;
  readAfterChange = -1;
  usedAtMs = Number.NEGATIVE_INFINITY;
  inFlight: Promise<void> | null = null;
  /** Orders reads and changes: an answer older than the one adopted is dropped. */
  issued = 0;
  adopted = 0;
}

/** What `now()` reads for a sandbox not read yet on this instance: real time, never stored. */
const UNREAD: Readonly<CachedSandbox> = Object.freeze(new CachedSandbox());

/**
 * The sandbox clock of contract §6, one per sandbox (§13): every method acts on the context's
 * sandbox (SandboxContext), and throws outside one. `now()` is synchronous and computed from a
 * cached copy of that sandbox's clock row; `sync()`, called at the start of every request and job
 * run, reads the row once and again only after SandboxChanges reports a change to it (one read of
 * the change log a second serves every sandbox), so the cost does not grow with the number of
 * sandboxes and idle instances cost the database nothing. The instance that changes a clock adopts
 * the new row at once. The
 * same read brings the sandbox's generation, which keys the in-process caches (SandboxCache).
 * A deleted sandbox's copy goes at once on the instance that deletes it (`forget`) and on another
 * when its read finds the sandbox gone; the caches keyed by its generation drop its entries with it.
 */
@Injectable()
export class SandboxClock extends Clock implements SandboxGenerations, SandboxChangeListener {
  private readonly sandboxes = new Map<string, CachedSandbox>();
  private readonly forgetListeners: Array<(sandboxId: string) => void> = [];

  constructor(
    private readonly repository: ClockRepository,
    private readonly changes: SandboxChanges,
  ) {
    super();
    changes.subscribe(this);
  }

  /**
   * Marks the copies stale; they stay readable (a request that already synced keeps its sandbox's
   * time) until the next sync reads them again, which forgets a sandbox found deleted.
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
    const cached = this.used();
    if (cached.readAfterChange === cached.changesSeen) return;
    cached.inFlight ??= this.refresh().finally(() => (cached.inFlight = null));
    return cached.inFlight;
  }

  refresh(): Promise<void> {
    return this.adopt(async (_realNow, cached) => {
      const read = await this.readOrForget();
      // A read brings the generation; a change (set, advance, reset) keeps the last one read.
      if (read.generation !== undefined) Object.assign(cached, { generation: read.generation, downtimeCalendar: read.downtimeCalendar });
      return read;
    });
  }

  /** Drops the sandboxes' copies and tells the caches keyed by their generations (deleted or reset). */
  forget(...sandboxIds: string[]): void {
    for (const sandboxId of sandboxIds) {
      this.sandboxes.delete(sandboxId);
      for (const listener of this.forgetListeners) listener(sandboxId);
    }
  }

  onForget(listener: (sandboxId: string) => void): void {
    this.forgetListeners.push(listener);
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

  /** The clock row; a sandbox found gone is forgotten here too (deleted on another instance). */
  private async readOrForget(): ReturnType<ClockRepository['read']> {
    try {
      return await this.repository.read();
    } catch (error) {
      if (error instanceof DeletedSandbox) this.forget(SandboxContext.sandboxId);
      throw error;
    }
  }

  /** The context's sandbox's copy as last read; real time until first read. Reading it keeps nothing. */
  private cached(): CachedSandbox {
    return this.sandboxes.get(SandboxContext.current().sandboxId) ?? UNREAD;
  }

  /** The context's sandbox's copy, created if need be and marked most recently used. */
  private used(): CachedSandbox {
    const { sandboxId } = SandboxContext.current();
    const nowMs = Date.now();
    const cached = this.sandboxes.get(sandboxId) ?? new CachedSandbox();
    // Map keeps insertion order: re-inserting makes it the most recently used.
    this.sandboxes.delete(sandboxId);
    this.sandboxes.set(sandboxId, cached);
    cached.usedAtMs = nowMs;
    for (const [id, oldest] of this.sandboxes) {
      if (this.sandboxes.size <= CAPACITY || nowMs - oldest.usedAtMs < IDLE_MS) break;
      this.sandboxes.delete(id);
    }
    return cached;
  }

  private async adopt(operation: (realNow: Date, cached: CachedSandbox) => Promise<ClockState>): Promise<void> {
    const cached = this.used();
    const ticket = ++cached.issued;
    const changesSeen = cached.changesSeen;
    const state = await operation(new Date(), cached);
    // A slow read that began before a later change of ours must not undo it.
    if (ticket < cached.adopted) return;
    cached.adopted = ticket;
    cached.state = state;
    // A change reported while this read ran may postdate it: then the copy stays stale.
    cached.readAfterChange = changesSeen;
  }
}
