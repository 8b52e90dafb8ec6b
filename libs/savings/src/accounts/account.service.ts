import { Injectable } from '@nestjs/common';
import { Clock, minorUnitsToDecimal, stockholmToday } from '@app/common';
import { AccountNumberTaken } from '../savings.errors';
import { Account, OpenAccount } from './account';
import { generateAccountNumber } from './account-number';
import { AccountRepository } from './account.repository';

const GENERATION_ATTEMPTS = 5;

/** Accounts and their balances. The owner must exist (the caller checks; the foreign key insists). */
@Injectable()
export class AccountService {
  constructor(
    private readonly accounts: AccountRepository,
    private readonly clock: Clock,
  ) {}

  async open(owner: string, request: OpenAccount): Promise<Account> {
    const balance = minorUnitsToDecimal(request.balanceMinor);
    const base = { ownerPersonalNumber: owner, name: request.name, currency: request.currency, balance, availableBalance: balance };
    if (request.accountNumber) {
      const account = await this.accounts.insert({ ...base, accountNumber: request.accountNumber });
      if (!account) throw new AccountNumberTaken(request.accountNumber);
      return account;
    }
    // A random number may collide with an existing one; the unique key decides, we draw again.
    for (let attempt = 0; attempt < GENERATION_ATTEMPTS; attempt++) {
      const account = await this.accounts.insert({ ...base, accountNumber: generateAccountNumber() });
      if (account) return account;
    }
    throw new Error(`No free account number after ${GENERATION_ATTEMPTS} attempts`);
  }

  /**
   * Opens the account with this number, or, if the owner already has it, sets its name, currency and
   * balance (loading a fixture twice gives the same state). Another owner's number is 409.
   */
  async openOrReplace(owner: string, request: OpenAccount & { accountNumber: string }): Promise<Account> {
    const balance = minorUnitsToDecimal(request.balanceMinor);
    const account = { ownerPersonalNumber: owner, accountNumber: request.accountNumber, name: request.name, currency: request.currency, balance, availableBalance: balance };
    const replaced = await this.accounts.replaceOwned(account);
    return replaced ?? this.open(owner, request);
  }

  listOwnedBy(owner: string): Promise<Account[]> {
    return this.accounts.listOwnedBy(owner, stockholmToday(this.clock.now()));
  }

  /** The number of accounts of each owner (0 for owners without any). */
  async countOwnedBy(owners: readonly string[]): Promise<Map<string, number>> {
    const counts = await this.accounts.countOwnedBy(owners);
    return new Map(owners.map((owner) => [owner, counts.get(owner) ?? 0]));
  }

  /** The owner's account, or null for an unknown or another owner's account. */
  findOwned(accountNumber: string, owner: string): Promise<Account | null> {
    return this.accounts.findOwned(accountNumber, owner, stockholmToday(this.clock.now()));
  }
}
