import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, QueryFailedError } from 'typeorm';
import { returnedRows } from '../database/returned-rows';
import { NotFound } from '../errors/domain-error';
import { SandboxChangeListener, SandboxChanges } from './sandbox-changes';
import { SandboxContext } from './sandbox-context';

/** A reservation older than this is one whose creation died before its seeding committed (a creation takes seconds at most). */
const STALE_RESERVATION_MINUTES = 10;
/** Bounded: a flood of ids costs memory up to this many entries. */
const CAPACITY = 10_000;
/** last_used_at is recorded to the minute: at most one write per sandbox and instance a minute (contract §13). */
const TOUCH_EVERY_MS = 60_000;

/** Remembers `id` at `atMs` in a Map bounded to CAPACITY entries (the oldest goes first). */
function remember(map: Map<string, number>, id: string, atMs: number): void {
  map.delete(id);
  if (map.size >= CAPACITY) map.delete(map.keys().next().value as string);
  map.set(id, atMs);
}

/** A well-formed sandbox id that names no sandbox: 404 on every route under it (contract §13). */
export class UnknownSandbox extends NotFound {
  constructor(sandboxId: string) {
    super(`No sandbox has the id ${sandboxId}.`);
  }
}

/** The sandbox of the request was deleted while it ran (another instance or request deleted it). */
export class DeletedSandbox extends NotFound {
  constructor() {
    super('This sandbox no longer exists: it was deleted.');
  }
}

/**
 * A write of a request in flight into a sandbox deleted meanwhile fails on its `sandbox_id`
 * foreign key: that is the sandbox's 404, never a 500 (contract §13 Lifecycle).
 */
export function isWriteToDeletedSandbox(error: unknown): boolean {
  if (!(error instanceof QueryFailedError)) return false;
  const driverError = error.driverError as { code?: string; constraint?: string } | undefined;
  return driverError?.code === '23503' && /_sandbox_id_fkey$/.test(driverError.constraint ?? '');
}

/** What a sandbox was created with: a reset recreates it from these (contract §13 Lifecycle). */
export interface SandboxSettings {
  seedDemo: boolean;
  demoPartnerKeyHash: string | null;
  /** null: the service's DOWNTIME_CALENDAR. */
  downtimeCalendar: boolean | null;
  /** null: real time. */
  clockNow: Date | null;
  clockFrozen: boolean;
  /** The seed fixture of contract §8 as created (its partners' keys as hashes), or null. */
  fixture: unknown;
}

export interface SandboxRow extends SandboxSettings {
  id: string;
  name: string;
  /** Created without a key (contract §13 Self-service): SANDBOX_SELF_SERVICE_MAX counts these. */
  selfService: boolean;
  generation: string;
  adminKeyHash: string | null;
  createdAt: Date;
  lastUsedAt: Date;
}

export type NewSandbox = Pick<SandboxRow, 'id' | 'name' | 'adminKeyHash' | 'selfService'> & SandboxSettings & Partial<Pick<SandboxRow, 'generation' | 'createdAt'>>;

/** How many sandboxes a creation counts (contract §13): all created ones, and those self-service made. */
export interface SandboxCounts {
  created: number;
  selfService: number;
}

const COLUMNS = `id, name, generation::text AS generation, admin_key_hash, self_service, seed_demo, demo_partner_key_hash,
  downtime_calendar, clock_now, clock_frozen, fixture, created_at, last_used_at`;

interface RawRow {
  id: string;
  name: string;
  self_service: boolean;
  generation: string;
  admin_key_hash: string | null;
  seed_demo: boolean;
  demo_partner_key_hash: string | null;
  downtime_calendar: boolean | null;
  clock_now: Date | string | null;
  clock_frozen: boolean;
  fixture: unknown;
  created_at: Date | string;
  last_used_at: Date | string;
}

function toRow(raw: RawRow): SandboxRow {
  return {
    id: raw.id,
    name: raw.name,
    selfService: raw.self_service,
    generation: raw.generation,
    adminKeyHash: raw.admin_key_hash,
    seedDemo: raw.seed_demo,
    demoPartnerKeyHash: raw.demo_partner_key_hash,
    downtimeCalendar: raw.downtime_calendar,
    clockNow: raw.clock_now === null ? null : new Date(raw.clock_now),
    clockFrozen: raw.clock_frozen,
    fixture: typeof raw.fixture === 'string' ? JSON.parse(raw.fixture) : raw.fixture,
    createdAt: new Date(raw.created_at),
    lastUsedAt: new Date(raw.last_used_at),
  };
}

/**
 * The `sandbox` table itself: which sandboxes exist (contract §13). It is the registry of sandboxes,
 * not a sandbox's data, so it is the one reader of that table outside SandboxDb. A creation first
 * reserves its row (`ready` false: counted, but no sandbox to any route or listing) and marks it
 * ready in the transaction that seeds it, so a sandbox is never seen half seeded. `exists` is the
 * one cached lookup per request of the prefix routing: a sandbox found is remembered until
 * SandboxChanges reports it changed or deleted (elsewhere: within a second); one not found is asked
 * again every time (a sandbox created elsewhere is usable at once). `delete` forgets at once on this
 * instance. Every statement joins the context's transaction when one is open (SandboxDb.transaction).
 */
@Injectable()
export class SandboxRegistry implements SandboxChangeListener {
  private readonly seenAtMs = new Map<string, number>();
  private readonly touchedAtMs = new Map<string, number>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly changes: SandboxChanges,
  ) {
    changes.subscribe(this);
  }

  sandboxesChanged(sandboxIds: ReadonlySet<string> | null): void {
    if (sandboxIds === null) this.seenAtMs.clear();
    else for (const sandboxId of sandboxIds) this.seenAtMs.delete(sandboxId);
  }

  // Date.now() here times this instance's cache and write throttle (process time, not a bank rule);
  // last_used_at is real time by contract §13 (SANDBOX_IDLE_DAYS are real days), written with now().
  async exists(sandboxId: string): Promise<boolean> {
    await this.changes.sync();
    if (this.seenAtMs.has(sandboxId)) return true;
    const checkedAt = Date.now();
    const rows: unknown[] = await this.manager.query(`SELECT 1 FROM sandbox WHERE id = $1 AND ready`, [sandboxId]);
    this.seenAtMs.delete(sandboxId);
    if (rows.length === 0) {
      this.forget(sandboxId);
      return false;
    }
    remember(this.seenAtMs, sandboxId, checkedAt);
    return true;
  }

  /**
   * Records a request to the sandbox as its last use (to the minute, never backwards); undefined
   * when this instance recorded one less than a minute ago, so most requests write nothing.
   */
  touch(sandboxId: string): Promise<void> | undefined {
    const touchedAt = this.touchedAtMs.get(sandboxId);
    if (touchedAt !== undefined && Date.now() - touchedAt < TOUCH_EVERY_MS) return undefined;
    remember(this.touchedAtMs, sandboxId, Date.now());
    return this.recordUse(sandboxId);
  }

  private async recordUse(sandboxId: string): Promise<void> {
    await this.manager.query(
      `UPDATE sandbox SET last_used_at = date_trunc('minute', now()) WHERE id = $1 AND last_used_at < date_trunc('minute', now())`,
      [sandboxId],
    );
  }

  /** Drops a deleted sandbox at once on this instance. */
  forget(sandboxId: string): void {
    this.seenAtMs.delete(sandboxId);
    this.touchedAtMs.delete(sandboxId);
  }

  async find(sandboxId: string, forUpdate = false): Promise<SandboxRow | null> {
    const rows: RawRow[] = await this.manager.query(`SELECT ${COLUMNS} FROM sandbox WHERE id = $1 AND ready${forUpdate ? ' FOR UPDATE' : ''}`, [sandboxId]);
    return rows.length === 0 ? null : toRow(rows[0]);
  }

  /**
   * The sandbox's generation as committed now (null: no such sandbox), read past every cache and
   * outside any transaction: how an error answer learns that its sandbox was reset or deleted while
   * the request ran (SandboxLifecycleRace). Only error paths ask it.
   */
  async committedGeneration(sandboxId: string): Promise<string | null> {
    const rows: Array<{ generation: string }> = await this.dataSource.manager.query(`SELECT generation::text AS generation FROM sandbox WHERE id = $1`, [sandboxId]);
    return rows[0]?.generation ?? null;
  }

  /**
   * Takes the sandbox's lifecycle lock until the open transaction ends: a reset or delete waits for
   * one in progress and then reads the row it committed (a statement that waited on the row itself
   * would find the old row gone and take a reset sandbox for a deleted one).
   */
  async lockLifecycle(sandboxId: string): Promise<void> {
    await this.manager.query(`SELECT pg_advisory_xact_lock(hashtext('sandbox_lifecycle'), hashtext($1))`, [sandboxId]);
  }

  /**
   * Moves the sandbox to its next generation in the open transaction, its data kept, so every
   * instance drops what it keeps in memory of the sandbox as immutable (access tokens, pending
   * codes): the one that changed it once it reads the row again, others within a second through
   * the change feed. For a change that removes such rows: a user seeded again (contract §8).
   */
  async renewGeneration(sandboxId: string): Promise<void> {
    await this.manager.query(`UPDATE sandbox SET generation = generation + 1 WHERE id = $1`, [sandboxId]);
  }

  /** The hash of the sandbox's own admin key (null: none, or no such sandbox). */
  async adminKeyHash(sandboxId: string): Promise<string | null> {
    const rows: Array<{ admin_key_hash: string | null }> = await this.manager.query(`SELECT admin_key_hash FROM sandbox WHERE id = $1 AND ready`, [sandboxId]);
    return rows[0]?.admin_key_hash ?? null;
  }

  /** One keyset page in id order (byte order, so every instance pages alike). */
  async list(after: string | undefined, limit: number): Promise<SandboxRow[]> {
    const rows: RawRow[] = await this.manager.query(
      `SELECT ${COLUMNS} FROM sandbox WHERE ready AND ($1::text IS NULL OR id COLLATE "C" > $1) ORDER BY id COLLATE "C" LIMIT $2`,
      [after ?? null, limit],
    );
    return rows.map(toRow);
  }

  /**
   * How many sandboxes exist besides the default one, reservations included (SANDBOX_MAX and
   * SANDBOX_SELF_SERVICE_MAX count these), after a transaction-level advisory lock: concurrent
   * creations count (and reserve) one after another. Only the counting is serialized: the creation
   * commits its reservation and lets go of the lock before it seeds (contract §13).
   */
  async countForCreation(): Promise<SandboxCounts> {
    await this.manager.query(`SELECT pg_advisory_xact_lock(hashtext('sandbox_create'))`);
    const rows: Array<{ created: number | string; self_service: number | string }> = await this.manager.query(
      `SELECT count(*) AS created, count(*) FILTER (WHERE self_service) AS self_service FROM sandbox WHERE id <> 'default'`,
    );
    return { created: Number(rows[0].created), selfService: Number(rows[0].self_service) };
  }

  /**
   * The sandbox row and its clock row (real time; the caller sets the clock in the sandbox's context).
   * `reserved`: not ready yet, until `markReady` in the transaction that seeds it.
   */
  async insert(sandbox: NewSandbox, reserved = false): Promise<SandboxRow> {
    const rows: RawRow[] = await this.manager.query(
      `INSERT INTO sandbox (id, name, generation, admin_key_hash, self_service, ready, seed_demo, demo_partner_key_hash, downtime_calendar,
                            clock_now, clock_frozen, fixture, created_at, last_used_at)
       VALUES ($1, $2, COALESCE($3::bigint, 1), $4, $12, NOT $13::boolean, $5, $6, $7, $8, $9, $10::jsonb, COALESCE($11::timestamptz, now()), now())
       RETURNING ${COLUMNS}`,
      [
        sandbox.id,
        sandbox.name,
        sandbox.generation ?? null,
        sandbox.adminKeyHash,
        sandbox.seedDemo,
        sandbox.demoPartnerKeyHash,
        sandbox.downtimeCalendar,
        sandbox.clockNow,
        sandbox.clockFrozen,
        sandbox.fixture === null || sandbox.fixture === undefined ? null : JSON.stringify(sandbox.fixture),
        sandbox.createdAt ?? null,
        sandbox.selfService,
        reserved,
      ],
    );
    await this.manager.query(`INSERT INTO sandbox_clock (sandbox_id, frozen) VALUES ($1, false)`, [sandbox.id]);
    return toRow(rows[0]);
  }

  /**
   * Holds a reservation for the open transaction that seeds it (a row lock the sweep of stale
   * reservations skips); false when it is gone.
   */
  async holdReservation(sandboxId: string): Promise<boolean> {
    const rows: unknown[] = await this.manager.query(`SELECT 1 FROM sandbox WHERE id = $1 AND NOT ready FOR NO KEY UPDATE`, [sandboxId]);
    return rows.length === 1;
  }

  /** The reserved sandbox becomes one, with the transaction that seeded it. */
  async markReady(sandboxId: string): Promise<SandboxRow> {
    const rows = returnedRows<RawRow>(await this.manager.query(`UPDATE sandbox SET ready = true WHERE id = $1 RETURNING ${COLUMNS}`, [sandboxId]));
    return toRow(rows[0]);
  }

  /** Gives a reservation back (its seeding failed): the row and, by cascade, whatever was written with it. */
  async dropReservation(sandboxId: string): Promise<void> {
    await this.manager.query(`DELETE FROM sandbox WHERE id = $1 AND NOT ready`, [sandboxId]);
  }

  /** Deletes the sandbox; ON DELETE CASCADE removes every row of its data (a trigger its journal entries). A reservation is no sandbox yet. */
  async delete(sandboxId: string): Promise<boolean> {
    const rows = returnedRows(await this.manager.query(`DELETE FROM sandbox WHERE id = $1 AND ready RETURNING id`, [sandboxId]));
    this.forget(sandboxId);
    return rows.length === 1;
  }

  /**
   * Deletes up to `limit` created sandboxes unused for `idleDays` real days (the default sandbox
   * never), longest idle first, and forgets them here (contract §13 Lifecycle); and reservations a
   * creation left when it died before its seeding committed (older than a creation ever takes).
   * Unused for exactly `idleDays` is enough: the period [last_used_at, last_used_at + idleDays) is
   * half-open (contract §6). `asOf` is the instant idleness is measured at: the database's now()
   * unless given. A request that touches one meanwhile keeps it: the row is locked and checked again
   * before it goes, and one being deleted, reset or seeded elsewhere is left to that.
   */
  async deleteIdle(idleDays: number, limit: number, asOf?: Date): Promise<string[]> {
    const rows = returnedRows<{ id: string }>(
      await this.manager.query(
        `DELETE FROM sandbox WHERE id IN (
           SELECT id FROM sandbox
            WHERE id <> 'default'
              AND (last_used_at <= COALESCE($4::timestamptz, now()) - make_interval(days => $1)
                   OR (NOT ready AND created_at < COALESCE($4::timestamptz, now()) - make_interval(mins => $3)))
            ORDER BY last_used_at LIMIT $2
              FOR UPDATE SKIP LOCKED)
         RETURNING id`,
        [idleDays, limit, STALE_RESERVATION_MINUTES, asOf ?? null],
      ),
    );
    for (const { id } of rows) this.forget(id);
    return rows.map((row) => row.id);
  }

  /** The context's transaction when one is open (the embedded database has one connection). */
  private get manager(): EntityManager {
    return (SandboxContext.active ? SandboxContext.current().manager : undefined) ?? this.dataSource.manager;
  }
}
