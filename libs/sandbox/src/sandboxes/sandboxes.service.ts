import { Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import {
  DEFAULT_SANDBOX_ID,
  DomainError,
  hashSecret,
  instantOf,
  InvalidState,
  newSecret,
  SandboxClock,
  SandboxConfig,
  SandboxContext,
  SandboxCreationLog,
  SandboxDb,
  SandboxRegistry,
  type SandboxRow,
  type SandboxSettings,
  UnknownSandbox,
  ValidationFailed,
} from '@app/common';
import { PartnerService } from '@app/directory';
import { DemoSeeder } from '../seed/demo-seeder';
import { SeedService } from '../seed/seed.service';
import { CreateSandboxDto, ListSandboxesQueryDto, SandboxCreatedDto, SandboxDto, SandboxListDto } from './sandbox.dto';

const DEFAULT_PAGE = 100;
/** What a self-service fixture may hold at most (contract §13 Self-service). */
const SELF_SERVICE_FIXTURE = { users: 100, accounts: 1000 };

/** A fixture as a sandbox keeps it for its resets: its partners' keys as hashes only. */
interface StoredFixture {
  users?: unknown[];
  tpps?: unknown[];
  partners: Array<{ name: string; api_key_hash: string }>;
}

/**
 * The sandbox lifecycle of contract §13: create, list, show, reset and delete. A sandbox is its
 * `sandbox` row (SandboxRegistry) and its data, seeded in its own context by the same services as
 * the default sandbox's. A creation is two transactions: a short one counts and reserves the row
 * under the creation lock (the only thing creations share), then one seeds it and marks it ready, so
 * no creation waits for another's seeding and no route sees a sandbox half seeded. A reset is one
 * transaction. `origin` is the request's scheme and host, for `base_url`.
 */
@Injectable()
export class SandboxesService {
  private readonly logger = new Logger(SandboxesService.name);

  constructor(
    private readonly db: SandboxDb,
    private readonly registry: SandboxRegistry,
    private readonly clock: SandboxClock,
    private readonly seed: SeedService,
    private readonly demo: DemoSeeder,
    private readonly partners: PartnerService,
    private readonly config: SandboxConfig,
    private readonly creations: SandboxCreationLog,
  ) {}

  /** `selfServiceCaller`: the caller's address (IPv4, or IPv6 /64) when it came without a key (rate limited); null for the operator key. */
  async create(dto: CreateSandboxDto, origin: string, selfServiceCaller: string | null = null): Promise<SandboxCreatedDto> {
    if (selfServiceCaller !== null) refuseLargeFixture(dto.fixture);
    const id = randomUUID();
    const adminKey = newSecret();
    const seedDemo = dto.seed_demo ?? true;
    const demoPartnerKey = seedDemo ? (dto.demo_partner_key ?? newSecret()) : undefined;
    const settings: SandboxSettings = {
      seedDemo,
      demoPartnerKeyHash: demoPartnerKey === undefined ? null : hashSecret(demoPartnerKey),
      downtimeCalendar: dto.downtime_calendar ?? null,
      clockNow: dto.clock ? instantOf(dto.clock.now) : null,
      clockFrozen: dto.clock?.frozen ?? false,
      fixture: dto.fixture ? storedFixture(dto.fixture) : null,
    };
    const selfService = selfServiceCaller !== null;
    const reserved = await SandboxContext.run(id, () =>
      this.db.transaction(async () => {
        await this.refuseOverLimit(selfService);
        if (selfServiceCaller !== null) await this.countSelfService(selfServiceCaller, id);
        return this.registry.insert({ id, name: dto.name, adminKeyHash: hashSecret(adminKey), selfService, ...settings }, true);
      }),
    );
    const row = await this.seedReserved(reserved);
    await this.adopt(id);
    return { ...toSandboxDto(row, origin), admin_key: adminKey, ...(demoPartnerKey === undefined ? {} : { demo_partner_key: demoPartnerKey }) };
  }

  async list(query: ListSandboxesQueryDto, origin: string): Promise<SandboxListDto> {
    const limit = query.limit ?? DEFAULT_PAGE;
    // One more than asked tells whether another page follows.
    const rows = await this.registry.list(query.after, limit + 1);
    const page = rows.slice(0, limit);
    return {
      sandboxes: page.map((row) => toSandboxDto(row, origin)),
      ...(rows.length > limit ? { next_after: page[page.length - 1].id } : {}),
    };
  }

  async show(sandboxId: string, origin: string): Promise<SandboxDto> {
    return toSandboxDto(await this.found(sandboxId), origin);
  }

  /**
   * Delete-and-recreate in place, in one transaction (contract §13): the row goes (ON DELETE CASCADE
   * takes every row of its data) and comes back with the same id, keys, settings and created_at and
   * the next generation, so every cache keyed by (sandbox, generation) drops its entries.
   */
  async reset(sandboxId: string, origin: string): Promise<SandboxDto> {
    const row = await SandboxContext.run(sandboxId, () =>
      this.db.transaction(async () => {
        // After a reset or delete in progress: the row read is the one it left.
        await this.registry.lockLifecycle(sandboxId);
        const old = await this.registry.find(sandboxId, true);
        if (!old) throw new UnknownSandbox(sandboxId);
        await this.registry.delete(sandboxId);
        const recreated = await this.registry.insert({ ...old, generation: String(BigInt(old.generation) + 1n) });
        await this.populate(recreated);
        return recreated;
      }),
    );
    // The old generation's cached entries can never be read again: free them now.
    this.clock.forget(sandboxId);
    await this.adopt(sandboxId);
    return toSandboxDto(row, origin);
  }

  async delete(sandboxId: string): Promise<void> {
    if (sandboxId === DEFAULT_SANDBOX_ID) throw new InvalidState('The default sandbox cannot be deleted (reset it instead).');
    const deleted = await SandboxContext.run(sandboxId, () =>
      this.db.transaction(async () => {
        // After a reset in progress, so a sandbox it recreates is not taken for one already gone.
        await this.registry.lockLifecycle(sandboxId);
        return this.registry.delete(sandboxId);
      }),
    );
    // Its routing entry, clock copy and cached entries go at once here, once committed (a request
    // meanwhile still found it); other instances drop them when they find it gone.
    this.registry.forget(sandboxId);
    this.clock.forget(sandboxId);
    if (!deleted) throw new UnknownSandbox(sandboxId);
  }

  /** This instance reads the committed sandbox row at once (generation, downtime setting); others within a second. */
  private adopt(sandboxId: string): Promise<void> {
    return SandboxContext.run(sandboxId, () => this.clock.refresh());
  }

  /**
   * Seeds a reserved sandbox in a transaction of its own, outside the creation lock, and marks it
   * ready in the same commit (contract §13: no creation waits for another's seeding). It holds the
   * sandbox's lifecycle lock, so a reset or delete of the id (which answers 404 until then) waits for
   * it. A seeding that fails leaves nothing: its writes roll back, and the reservation and its
   * self-service count are taken back (a crash before that leaves a reservation the idle-sandbox job
   * deletes after 10 minutes, SandboxRegistry.deleteIdle).
   */
  private async seedReserved(reserved: SandboxRow): Promise<SandboxRow> {
    try {
      return await SandboxContext.run(reserved.id, () =>
        this.db.transaction(async () => {
          await this.registry.lockLifecycle(reserved.id);
          if (!(await this.registry.holdReservation(reserved.id))) {
            throw new DomainError('CONCURRENT_CHANGES', 'The sandbox being created was cleared away meanwhile: create it again.', { 'Retry-After': '1' });
          }
          await this.populate(reserved);
          return this.registry.markReady(reserved.id);
        }),
      );
    } catch (error) {
      await this.releaseReservation(reserved.id);
      throw error;
    }
  }

  /** Takes a failed creation back: its reservation and the self-service count it took, in one transaction. */
  private async releaseReservation(sandboxId: string): Promise<void> {
    try {
      await SandboxContext.run(sandboxId, () =>
        this.db.transaction(async () => {
          await this.registry.dropReservation(sandboxId);
          await this.creations.forget(sandboxId);
        }),
      );
    } catch (error) {
      // The database away: the idle-sandbox job deletes the reservation later; the creation's own error is what the client hears.
      this.logger.warn({ err: error, sandbox_id: sandboxId }, 'reservation of a failed creation not released; the idle-sandbox job will');
    }
  }

  /**
   * SANDBOX_MAX, and for a self-service creation SANDBOX_SELF_SERVICE_MAX (contract §13: the operator
   * can always create); the transaction-level lock makes concurrent creations count one after another.
   */
  private async refuseOverLimit(selfService: boolean): Promise<void> {
    const counts = await this.registry.countForCreation();
    if (counts.created >= this.config.sandboxMax) {
      throw new DomainError('SANDBOX_LIMIT_REACHED', `This service holds its maximum of ${this.config.sandboxMax} sandboxes (SANDBOX_MAX): delete one first.`);
    }
    if (selfService && counts.selfService >= this.config.sandboxSelfServiceMax) {
      throw new DomainError(
        'SANDBOX_LIMIT_REACHED',
        `Self-service creations fill at most ${this.config.sandboxSelfServiceMax} of this service's sandboxes (SANDBOX_SELF_SERVICE_MAX), the rest are kept for the operator: delete one first.`,
      );
    }
  }

  /**
   * SANDBOX_CREATE_PER_HOUR per caller (an IPv4 address or an IPv6 /64) over a sliding 60 real
   * minutes (contract §13 Self-service), under the creation lock refuseOverLimit took, so concurrent
   * creations on every instance count one after another; a refusal rolls the transaction back,
   * nothing written.
   */
  private async countSelfService(caller: string, sandboxId: string): Promise<void> {
    const window = await this.creations.window(caller);
    if (window.count >= this.config.sandboxCreatePerHour) {
      const retryAfter = Math.max(1, window.secondsUntilRoom);
      throw new DomainError(
        'RATE_LIMITED',
        `This address (${caller.includes('/') ? 'its /64 network' : 'counted alone'}) created ${window.count} sandboxes within the last 60 minutes, the most SANDBOX_CREATE_PER_HOUR allows: retry in ${retryAfter} s.`,
        { 'Retry-After': String(retryAfter) },
      );
    }
    await this.creations.record(caller, sandboxId);
  }

  private async found(sandboxId: string): Promise<SandboxRow> {
    const row = await this.registry.find(sandboxId);
    if (!row) throw new UnknownSandbox(sandboxId);
    return row;
  }

  /** The data a sandbox starts with, in its context and the open transaction: clock, demo set, fixture. */
  private async populate(row: SandboxRow): Promise<void> {
    // The clock first: seeding reads it (personal numbers' century, timestamps).
    if (row.clockNow) await this.clock.set(row.clockNow, row.clockFrozen, 'clock.now');
    else await this.clock.reset();
    if (row.id === DEFAULT_SANDBOX_ID) {
      await this.demo.seedDefault();
      return;
    }
    if (row.seedDemo && row.demoPartnerKeyHash) await this.demo.seedSandbox(row.demoPartnerKeyHash);
    const fixture = row.fixture as StoredFixture | null;
    if (fixture) {
      await this.seed.loadWithin({ ...fixture, partners: [] } as Parameters<SeedService['loadWithin']>[0], 'fixture.');
      for (const partner of fixture.partners) await this.partners.ensureHashed(partner.name, partner.api_key_hash);
    }
  }
}

/** A self-service fixture holds at most 100 users and 1 000 accounts (contract §13 Self-service), checked before anything is written. */
function refuseLargeFixture(fixture: CreateSandboxDto['fixture']): void {
  const users = fixture?.users ?? [];
  const accounts = users.reduce((sum, user) => sum + (user.accounts?.length ?? 0), 0);
  if (users.length > SELF_SERVICE_FIXTURE.users || accounts > SELF_SERVICE_FIXTURE.accounts) {
    throw new ValidationFailed(
      `fixture holds ${users.length} users and ${accounts} accounts; a self-service creation takes at most ${SELF_SERVICE_FIXTURE.users} users and ${SELF_SERVICE_FIXTURE.accounts} accounts (the operator key takes more).`,
    );
  }
}

function storedFixture(fixture: NonNullable<CreateSandboxDto['fixture']>): StoredFixture {
  return {
    ...fixture,
    partners: (fixture.partners ?? []).map((partner) => ({ name: partner.name, api_key_hash: hashSecret(partner.api_key ?? newSecret()) })),
  };
}

function toSandboxDto(row: SandboxRow, origin: string): SandboxDto {
  return {
    sandbox_id: row.id,
    name: row.name,
    base_url: `${origin}/sandboxes/${row.id}`,
    created_at: row.createdAt.toISOString(),
    last_used_at: row.lastUsedAt.toISOString(),
  };
}
