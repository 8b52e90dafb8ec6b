import { Injectable } from '@nestjs/common';
import { type PersonalNumber, ValidationFailed, toMinorUnits } from '@app/common';
import { UserService } from '@app/directory';
import { AccountService, OpenAccount } from '@app/savings';
import type { UserSettings } from '@app/directory';
import { AccountDto, toAccountDto } from '@app/savings';
import { type ListUsersQueryDto, OpenAccountDto, PutUserDto, UserListDto, UserResponseDto } from './user.dto';
import { toUserResponse, toUserSummary } from './user.mapper';

const DEFAULT_USERS_PAGE = 100;

/** The admin use cases on users and their accounts (contract §8). */
@Injectable()
export class AdminUsersService {
  constructor(
    private readonly users: UserService,
    private readonly accounts: AccountService,
  ) {}

  async put(personalNumber: PersonalNumber, dto: PutUserDto): Promise<{ user: UserResponseDto; created: boolean }> {
    const { user, created } = await this.users.put(personalNumber, toUserSettings(dto));
    return { user: toUserResponse(user, await this.accounts.listOwnedBy(personalNumber)), created };
  }

  async get(personalNumber: PersonalNumber): Promise<UserResponseDto> {
    const user = await this.users.require(personalNumber);
    return toUserResponse(user, await this.accounts.listOwnedBy(personalNumber));
  }

  /** One page of users in personal-number order, with their account counts (two indexed reads). */
  async list(query: ListUsersQueryDto): Promise<UserListDto> {
    const limit = query.limit ?? DEFAULT_USERS_PAGE;
    // One more than asked tells whether another page follows.
    const users = await this.users.list(query.after, limit + 1);
    const page = users.slice(0, limit);
    const counts = await this.accounts.countOwnedBy(page.map((user) => user.personalNumber));
    return {
      users: page.map((user) => toUserSummary(user, counts.get(user.personalNumber) ?? 0)),
      ...(users.length > limit ? { next_after: page[page.length - 1].personalNumber } : {}),
    };
  }

  async openAccount(personalNumber: PersonalNumber, dto: OpenAccountDto): Promise<AccountDto> {
    await this.users.require(personalNumber);
    return toAccountDto(await this.accounts.open(personalNumber, toOpenAccount(dto)));
  }
}

export function toUserSettings(dto: PutUserDto): UserSettings {
  return {
    name: dto.name,
    kycCompleted: dto.kyc_completed,
    eidBehaviour: dto.eid_behaviour,
    busyElsewhere: dto.busy_elsewhere,
    creditDecision: dto.credit_decision,
  };
}

export function toOpenAccount(dto: OpenAccountDto, field = 'balance'): OpenAccount {
  const balanceMinor = toMinorUnits(dto.balance);
  if (balanceMinor === null) throw new ValidationFailed(`${field} must be a number with at most two decimals`);
  return { name: dto.name, currency: dto.currency, balanceMinor, accountNumber: dto.account_number };
}
