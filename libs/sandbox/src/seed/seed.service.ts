import { Injectable } from '@nestjs/common';
import { type PersonalNumber, PersonalNumberReader, SandboxClock, SandboxContext, SandboxDb, SandboxRegistry } from '@app/common';
import { ConsentService } from '@app/auth';
import { PartnerService, TppRegistry, UserService } from '@app/directory';
import { EidOrderService } from '@app/eid';
import { EnterpriseService } from '@app/enterprise';
import { AccountService, OpenAccount } from '@app/savings';
import { SigningService } from '@app/signing';
import { toPartnerCreated } from '../partners/partner.mapper';
import { toOpenAccount, toUserSettings } from '../users/admin-users.service';
import { toAccountDto } from '@app/savings';
import { SeededUserDto, SeedFixtureDto, SeedResultDto, SeedUserDto } from './seed.dto';

/** How far a fixture load has come: after each item of each part of the fixture. */
export interface SeedProgress {
  part: 'users' | 'partners' | 'tpps';
  done: number;
  total: number;
}

export type SeedProgressListener = (progress: SeedProgress) => void;

/**
 * Loads a fixture (contract §8) in one transaction: a bad item anywhere leaves nothing behind. A user
 * seeded again is replaced as if new: before anything is written, every such user's data goes, each
 * through its own lib's door — accounts with their transfers, recurring transfers, transfer
 * signings and booked entries (savings); consents, access and refresh tokens and pending codes
 * (auth); enterprise end-user tokens and codes (enterprise); the person's signing state, blocks
 * included (signing); open eid orders, cancelled (eid). Pre-approvals and loan applications naming
 * the user stay: they are the partner's records.
 */
@Injectable()
export class SeedService {
  constructor(
    private readonly db: SandboxDb,
    private readonly personalNumbers: PersonalNumberReader,
    private readonly users: UserService,
    private readonly accounts: AccountService,
    private readonly consents: ConsentService,
    private readonly enterprise: EnterpriseService,
    private readonly signing: SigningService,
    private readonly eid: EidOrderService,
    private readonly partners: PartnerService,
    private readonly tpps: TppRegistry,
    private readonly registry: SandboxRegistry,
    private readonly clock: SandboxClock,
  ) {}

  /**
   * Loads the fixture in a transaction of its own (POST /admin/seed, the command line). `onProgress`
   * hears of every item written (the command line prints it; nothing is committed until the end).
   * When it replaced a user, this instance drops what it cached of the sandbox once committed (the
   * user's access tokens among it); other instances do within a second.
   */
  async load(fixture: SeedFixtureDto, onProgress: SeedProgressListener = () => undefined): Promise<SeedResultDto> {
    const { result, replaced } = await this.write(fixture, onProgress, '');
    if (replaced) {
      const sandboxId = SandboxContext.sandboxId;
      this.clock.forget(sandboxId);
      await this.clock.refresh();
    }
    return result;
  }

  /**
   * As `load`, inside the caller's transaction: a sandbox's creation or reset, which renews this
   * instance's view of the sandbox itself once committed. `field` is where the fixture sits in the
   * request body (`fixture.` in POST /sandboxes), so a refusal names the field as the client sent it.
   */
  async loadWithin(fixture: SeedFixtureDto, field: string): Promise<SeedResultDto> {
    return (await this.write(fixture, () => undefined, field)).result;
  }

  private async write(fixture: SeedFixtureDto, onProgress: SeedProgressListener, field: string): Promise<{ result: SeedResultDto; replaced: boolean }> {
    // Read every personal number before writing anything, so bad input writes nothing.
    const users = (fixture.users ?? []).map((user, i) => ({
      user,
      personalNumber: this.personalNumbers.read(user.personal_number, `${field}users.${i}.personal_number`),
    }));
    const openings = users.map(({ user }, i) => (user.accounts ?? []).map((a, j) => toOpenAccount(a, `${field}users.${i}.accounts.${j}.balance`)));
    return this.db.transaction(async () => {
      // Every user seeded again goes first, so an account number one of them held is free for any user of the fixture.
      const existing = await this.users.existing(users.map(({ personalNumber }) => personalNumber));
      for (const personalNumber of existing) await this.forget(personalNumber);
      // Their access tokens and pending codes may be cached as immutable on any instance: a new generation drops them.
      if (existing.size > 0) await this.registry.renewGeneration(SandboxContext.sandboxId);
      const seededUsers: SeededUserDto[] = [];
      for (const [i, { user, personalNumber }] of users.entries()) {
        seededUsers.push(await this.seedUser(personalNumber, user, openings[i]));
        onProgress({ part: 'users', done: i + 1, total: users.length });
      }
      const partners = [];
      const partnerItems = fixture.partners ?? [];
      for (const p of partnerItems) {
        const issued = p.api_key ? await this.partners.ensure(p.name, p.api_key) : await this.partners.register(p.name, undefined);
        partners.push(toPartnerCreated(issued));
        onProgress({ part: 'partners', done: partners.length, total: partnerItems.length });
      }
      const tpps = [];
      const tppItems = fixture.tpps ?? [];
      for (const t of tppItems) {
        const tpp = await this.tpps.configure(t.organization_id, { nonAuthenticatedTokenLifetimeS: t.non_authenticated_token_lifetime_s });
        tpps.push({ organization_id: tpp.identifier, non_authenticated_token_lifetime_s: tpp.nonAuthenticatedTokenLifetimeS });
        onProgress({ part: 'tpps', done: tpps.length, total: tppItems.length });
      }
      return { result: { users: seededUsers, partners, tpps }, replaced: existing.size > 0 };
    });
  }

  /** Contract §8: the user's data goes as if the user were new (see the class comment for what and why). */
  private async forget(personalNumber: PersonalNumber): Promise<void> {
    await this.accounts.forgetOwner(personalNumber);
    await this.consents.forgetUser(personalNumber);
    await this.enterprise.forgetUser(personalNumber);
    await this.signing.forgetPerson(personalNumber);
    await this.eid.cancelOpenOrdersOf(personalNumber);
  }

  private async seedUser(personalNumber: PersonalNumber, user: SeedUserDto, openings: OpenAccount[]): Promise<SeededUserDto> {
    const { created } = await this.users.put(personalNumber, toUserSettings(user));
    const accounts = [];
    for (const opening of openings) accounts.push(toAccountDto(await this.accounts.open(personalNumber, opening)));
    return { personal_number: personalNumber, created, accounts };
  }
}
