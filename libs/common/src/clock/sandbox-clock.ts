import { Injectable } from '@nestjs/common';
import { SandboxGenerations } from '../sandbox/sandbox-cache';
import { SandboxChangeListener, SandboxChanges } from '../sandbox/sandbox-changes';
import { SandboxContext } from '../sandbox/sandbox-context';
import { DeletedSandbox } from '../sandbox/sandbox-registry';
import { ValidationFailed } from '../errors/domain-error';
import { isWithin, outsideRangeMessage } from '../values/instant';
import { Clock } from './clock';
import { SANDBOX_CLOCK_RANGE } from './clock-range';
import { ClockRepository, DatabaseTime, SandboxRead } from './clock.repository';
import { ClockState, REAL_TIME, sandboxNow } from './clock-state';

/**
 * Past this many sandboxes the least recently used copies go, but only those unused for IDLE_MS
 * (a request in progress keeps its copy), so the map holds at most CAPACITY plus the sandboxes used
 * within the last minute. A sandbox whose copy went is simply read again.
 */
const CAPACITY = 10_000;
const IDLE_MS = 60_000;
/**
 * A copy is moved to the map's recent end at most this often: moving it (delete, then set) made
 * the map reallocate its table on every request (issue 19). The order is then by use to within this
 * long, which only lets an idle copy stay a little past IDLE_MS.
 */
const REORDER_MS = 1_000;
/** A clock row a job pass read with its due work is taken as this instance's copy while this fresh. */
const FRESH_READ_MS = 900;

/** This instance's copy of one sandbox's clock row and generation. */
class CachedSandbox {
  state: ClockState = REAL_TIME;
  generation = '0';
  downtimeCalendar: boolean | null = null;
  /** Counts the changes SandboxChanges reported; the copy is current when read after the last one. */
  changesSeen = 0;
  readAfterChange = -1;
  /** When the copy was read (process time): a job pass's read older than it is not taken. */
  readAtMs = Number.NEGATIVE_INFINITY;
  usedAtMs = Number.NEGATIVE_INFINITY;
  inFlight: Promise<void> | null = null;
  /**
   * The changes (set, advance, reset) this instance has begun and those still running, and when the
   * last began (process time): a read that overlapped one may have read the row before it committed,
   * so only the change's answer is taken (contract §6: the changing instance sees it at once).
   */
  changesBegun = 0;
  changesRunning = 0;
  changeBegunAtMs = Number.NEGATIVE_INFINITY;
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
  /**
   * The database's clock minus this process's, as last measured: the clock anchors are the
   * database's clock_timestamp() (so the set-based job queries agree with requests), and real now
   * here is read on the same clock.
   */
  private databaseOffsetMs = 0;

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
    return sandboxNow(this.cached().state, Date.now() + this.databaseOffsetMs);
  }

  get frozen(): boolean {
    return this.cached().state.frozen;
  }

  /** A sandbox's clock as last read, outside its context (the journal's entries, built after their requests). */
  readingOf(sandboxId: string): { now: Date; frozen: boolean } {
    const { state } = this.sandboxes.get(sandboxId) ?? UNREAD;
    return { now: sandboxNow(state, Date.now() + this.databaseOffsetMs), frozen: state.frozen };
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
    return this.adopt('read', async (cached) => {
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

  /**
   * Takes the context's sandbox's clock row as a job pass read it with its due work at `readAtMs`
   * (process time), so the sync() that follows costs nothing: only a read under FRESH_READ_MS old
   * and newer than the copy in hand (a change reported since still makes the copy stale).
   */
  adoptRead(read: SandboxRead, readAtMs: number): void {
    if (Date.now() - readAtMs >= FRESH_READ_MS) return;
    const cached = this.used();
    // Older than the copy in hand, or taken while a change of ours ran or after it began: not taken.
    if (readAtMs <= cached.readAtMs || cached.changesRunning > 0 || readAtMs <= cached.changeBegunAtMs) return;
    // The database clock's offset stays as measured by this instance's own reads (round trips it times).
    const state: ClockState = { sandboxAnchor: read.sandboxAnchor, realAnchor: read.realAnchor, frozen: read.frozen };
    const { generation, downtimeCalendar } = read;
    Object.assign(cached, { state, generation, downtimeCalendar, readAtMs, readAfterChange: cached.changesSeen });
  }

  /**
   * Every way to set a sandbox clock comes here (PUT /admin/clock, POST /sandboxes and its resets,
   * the CLI): an instant outside SANDBOX_CLOCK_RANGE is refused, `field` naming the input.
   */
  async set(now: Date, frozen: boolean, field = 'now'): Promise<void> {
    if (!isWithin(now, SANDBOX_CLOCK_RANGE)) throw new ValidationFailed(outsideRangeMessage(field, SANDBOX_CLOCK_RANGE));
    return this.adopt('change', () => this.repository.set(now, frozen));
  }

  /** Moves the clock forward, unless that would take it past SANDBOX_CLOCK_RANGE: then 400 naming seconds, nothing moved. */
  advance(seconds: number): Promise<void> {
    return this.adopt('change', async () => {
      const moved = await this.repository.advance(seconds, SANDBOX_CLOCK_RANGE.latest);
      if (moved) return moved;
      // Nothing updated: the sandbox is gone (its 404, thrown by the read) or the move was too far.
      await this.repository.read();
      throw new ValidationFailed(`seconds must not move the sandbox clock past ${SANDBOX_CLOCK_RANGE.latest.toISOString()}, the end of ${SANDBOX_CLOCK_RANGE.what}`);
    });
  }

  reset(): Promise<void> {
    return this.adopt('change', () => this.repository.reset());
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
    let cached = this.sandboxes.get(sandboxId);
    if (!cached || nowMs - cached.usedAtMs >= REORDER_MS) {
      cached ??= new CachedSandbox();
      // Map keeps insertion order: re-inserting makes it the most recently used.
      this.sandboxes.delete(sandboxId);
      this.sandboxes.set(sandboxId, cached);
      cached.usedAtMs = nowMs;
      this.evictIdle(nowMs);
    }
    return cached;
  }

  /** Past CAPACITY, the least recently used copies unused for IDLE_MS go (a request in progress keeps its own). */
  private evictIdle(nowMs: number): void {
    if (this.sandboxes.size <= CAPACITY) return;
    for (const [id, oldest] of this.sandboxes) {
      if (this.sandboxes.size <= CAPACITY || nowMs - oldest.usedAtMs < IDLE_MS) break;
      this.sandboxes.delete(id);
    }
  }

  /**
   * Runs a read or a change of the clock row and takes its answer as this instance's copy, unless
   * a change of this instance overlapped it: a read that overlapped a change may have read the row
   * before the change committed (its answer is dropped; the change's stands), and changes that
   * overlapped each other commit in an order this instance cannot see (the last to answer is kept,
   * and the next sync reads the row).
   */
  private async adopt(kind: 'read' | 'change', operation: (cached: CachedSandbox) => Promise<DatabaseTime>): Promise<void> {
    const cached = this.used();
    const changesSeen = cached.changesSeen;
    const realNowMs = Date.now();
    const ours = kind === 'change' ? 1 : 0;
    const runningAtStart = cached.changesRunning;
    const begunAtStart = cached.changesBegun;
    cached.changesBegun += ours;
    cached.changesRunning += ours;
    if (ours) cached.changeBegunAtMs = realNowMs;
    let answer: DatabaseTime;
    try {
      answer = await operation(cached);
    } finally {
      cached.changesRunning -= ours;
    }
    // Another change ran when this began, or began while it ran.
    const concurrent = runningAtStart > 0 || cached.changesBegun - begunAtStart > ours;
    const { dbNow, ...state } = answer;
    // The database read its clock between our two readings: the midpoint is the best guess of when.
    if (dbNow) this.databaseOffsetMs = dbNow.getTime() - (realNowMs + Date.now()) / 2;
    if (kind === 'read' && concurrent) return;
    cached.state = state;
    cached.readAtMs = realNowMs;
    // A change reported while this ran may postdate it, and overlapping changes may have committed
    // in another order: then the copy stays stale, and the next sync reads the row.
    cached.readAfterChange = concurrent ? -1 : changesSeen;
  }
}
