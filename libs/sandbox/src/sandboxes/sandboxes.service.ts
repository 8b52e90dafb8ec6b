import { Injectable } from '@nestjs/common';
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
} from '@app/common';
import { PartnerService } from '@app/directory';
import { DemoSeeder } from '../seed/demo-seeder';
import { SeedService } from '../seed/seed.service';
import { CreateSandboxDto, ListSandboxesQueryDto, SandboxCreatedDto, SandboxDto, SandboxListDto } from './sandbox.dto';

const DEFAULT_PAGE = 100;

/** A fixture as a sandbox keeps it for its resets: its partners' keys as hashes only. */
interface StoredFixture {
  users?: unknown[];
  tpps?: unknown[];
  partners: Array<{ name: string; api_key_hash: string }>;
}

/**
 * The sandbox lifecycle of contract §13: create, list, show, reset and delete. A sandbox is its
 * `sandbox` row (SandboxRegistry) and its data, seeded in its own context by the same services as
 * the default sandbox's; creation and reset are one transaction each. `origin` is the request's
 * scheme and host, for `base_url`.
 */
@Injectable()
export class SandboxesService {
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

  /** `selfServiceIp`: the caller's IP when it came without a key (rate limited); null for the operator key. */
  async create(dto: CreateSandboxDto, origin: string, selfServiceIp: string | null = null): Promise<SandboxCreatedDto> {
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
    const row = await SandboxContext.run(id, () =>
      this.db.transaction(async () => {
        await this.refuseOverLimit();
        if (selfServiceIp !== null) await this.countSelfService(selfServiceIp);
        const created = await this.registry.insert({ id, name: dto.name, adminKeyHash: hashSecret(adminKey), ...settings });
        await this.populate(created);
        return created;
      }),
    );
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

  /** SANDBOX_MAX (contract §13); the transaction-level lock makes concurrent creations count one after another. */
  private async refuseOverLimit(): Promise<void> {
    if ((await this.registry.countCreated(true)) >= this.config.sandboxMax) {
      throw new DomainError('SANDBOX_LIMIT_REACHED', `This service holds its maximum of ${this.config.sandboxMax} sandboxes (SANDBOX_MAX): delete one first.`);
    }
  }

  /**
   * SANDBOX_CREATE_PER_HOUR per caller IP over a sliding 60 real minutes (contract §13 Self-service),
   * under the creation lock refuseOverLimit took, so concurrent creations on every instance count
   * one after another; a refusal rolls the transaction back, nothing written.
   */
  private async countSelfService(callerIp: string): Promise<void> {
    const window = await this.creations.window(callerIp);
    if (window.count >= this.config.sandboxCreatePerHour) {
      const retryAfter = Math.max(1, window.secondsUntilRoom);
      throw new DomainError(
        'RATE_LIMITED',
        `This address created ${window.count} sandboxes within the last 60 minutes, the most SANDBOX_CREATE_PER_HOUR allows: retry in ${retryAfter} s.`,
        { 'Retry-After': String(retryAfter) },
      );
    }
    await this.creations.record(callerIp);
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
