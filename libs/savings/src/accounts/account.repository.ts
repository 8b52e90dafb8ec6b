import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, In, Repository } from 'typeorm';
import { returnedRows } from '@app/common';
import { AccountEntity } from './account.entity';
import { Account } from './account';

interface AccountRow {
  account_number: string;
  owner_personal_number: string;
  name: string;
  currency: string;
  balance: string;
}

const toAccount = (row: AccountRow): Account => ({
  accountNumber: row.account_number,
  ownerPersonalNumber: row.owner_personal_number,
  name: row.name,
  currency: row.currency,
  balance: row.balance,
});

@Injectable()
export class AccountRepository {
  constructor(@InjectRepository(AccountEntity) private readonly accounts: Repository<AccountEntity>) {}

  /** Inserts unless the number is taken; null when it is. */
  async insert(account: Account, manager: EntityManager = this.accounts.manager): Promise<Account | null> {
    const rows: AccountRow[] = await manager.query(
      `INSERT INTO account (account_number, owner_personal_number, name, currency, balance)
       VALUES ($1, $2, $3, $4, $5::numeric)
       ON CONFLICT (account_number) DO NOTHING
       RETURNING account_number, owner_personal_number, name, currency, balance::text AS balance`,
      [account.accountNumber, account.ownerPersonalNumber, account.name, account.currency, account.balance],
    );
    return rows[0] ? toAccount(rows[0]) : null;
  }

  /** Replaces name, currency and balance of an account the owner already has (fixtures reloaded). */
  async replaceOwned(account: Account, manager: EntityManager = this.accounts.manager): Promise<Account | null> {
    const result: unknown = await manager.query(
      `UPDATE account SET name = $3, currency = $4, balance = $5::numeric
        WHERE account_number = $1 AND owner_personal_number = $2
        RETURNING account_number, owner_personal_number, name, currency, balance::text AS balance`,
      [account.accountNumber, account.ownerPersonalNumber, account.name, account.currency, account.balance],
    );
    const rows = returnedRows<AccountRow>(result);
    return rows[0] ? toAccount(rows[0]) : null;
  }

  /** Every account of these owners, oldest first, in one indexed query. */
  async listByOwners(owners: string[], manager: EntityManager = this.accounts.manager): Promise<Account[]> {
    if (owners.length === 0) return [];
    const entities = await manager.find(AccountEntity, {
      where: { ownerPersonalNumber: In(owners) },
      order: { createdAt: 'ASC', accountNumber: 'ASC' },
    });
    return entities.map((e) => ({
      accountNumber: e.accountNumber,
      ownerPersonalNumber: e.ownerPersonalNumber,
      name: e.name,
      currency: e.currency,
      balance: e.balance,
    }));
  }
}
