import { Injectable } from '@nestjs/common';
import { Clock, minorUnitsToDecimal, SandboxDb, stockholmToday } from '@app/common';
import { RecurringTransferRepository } from '../recurring/recurring-transfer.repository';
import { TransferSigningRepository } from '../signing/transfer-signing.repository';
import { TransferRepository } from '../transfers/transfer.repository';
import { AccountNumberTaken } from '../savings.errors';
import { Account, OpenAccount } from './account';
import { generateAccountNumber } from './account-number';
import { AccountTransactionRepository } from './account-transaction.repository';
import { AccountRepository } from './account.repository';

const GENERATION_ATTEMPTS = 5;

/** Accounts and their balances. The owner must exist (the caller checks; the foreign key insists). */
@Injectable()
export class AccountService {
  constructor(
    private readonly db: SandboxDb,
    private readonly accounts: AccountRepository,
    private readonly entries: AccountTransactionRepository,
    private readonly transfers: TransferRepository,
    private readonly recurring: RecurringTransferRepository,
    private readonly signings: TransferSigningRepository,
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
   * Contract §8, a user seeded again is as if new: the owner's accounts go, with every transfer and
   * recurring transfer ordered from them, their transfer signings, and the entries booked on them.
   * An entry a transfer of theirs booked on another user's account stays: it is that account's
   * record, as its balance is. One transaction (the caller's, if open).
   */
  forgetOwner(owner: string): Promise<void> {
    return this.db.transaction(async () => {
      await this.signings.deleteOf(owner);
      await this.entries.deleteOnAccountsOf(owner);
      await this.transfers.deleteFromAccountsOf(owner);
      await this.recurring.deleteFromAccountsOf(owner);
      await this.accounts.deleteOwnedBy(owner);
    });
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
