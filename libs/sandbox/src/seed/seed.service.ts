import { Injectable } from '@nestjs/common';
import { type PersonalNumber, PersonalNumberReader, SandboxDb } from '@app/common';
import { PartnerService, TppRegistry, UserService } from '@app/directory';
import { AccountService, OpenAccount } from '@app/savings';
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

/** Loads a fixture (contract §8) in one transaction: a bad item anywhere leaves nothing behind. */
@Injectable()
export class SeedService {
  constructor(
    private readonly db: SandboxDb,
    private readonly personalNumbers: PersonalNumberReader,
    private readonly users: UserService,
    private readonly accounts: AccountService,
    private readonly partners: PartnerService,
    private readonly tpps: TppRegistry,
  ) {}

  /**
   * `onProgress` hears of every item written (the command line prints it; nothing is committed until
   * the end). `field` is where the fixture sits in the request body (`fixture.` in POST /sandboxes),
   * so a refusal names the field as the client sent it.
   */
  load(fixture: SeedFixtureDto, onProgress: SeedProgressListener = () => undefined, field = ''): Promise<SeedResultDto> {
    // Read every personal number before writing anything, so bad input writes nothing.
    const users = (fixture.users ?? []).map((user, i) => ({
      user,
      personalNumber: this.personalNumbers.read(user.personal_number, `${field}users.${i}.personal_number`),
    }));
    const openings = users.map(({ user }, i) => (user.accounts ?? []).map((a, j) => toOpenAccount(a, `${field}users.${i}.accounts.${j}.balance`)));
    return this.db.transaction(async () => {
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
      return { users: seededUsers, partners, tpps };
    });
  }

  private async seedUser(
    personalNumber: PersonalNumber,
    user: SeedUserDto,
    openings: OpenAccount[],
  ): Promise<SeededUserDto> {
    const { created } = await this.users.put(personalNumber, toUserSettings(user));
    const accounts = [];
    for (const opening of openings) {
      const account = opening.accountNumber
        ? await this.accounts.openOrReplace(personalNumber, { ...opening, accountNumber: opening.accountNumber })
        : await this.accounts.open(personalNumber, opening);
      accounts.push(toAccountDto(account));
    }
    return { personal_number: personalNumber, created, accounts };
  }
}
