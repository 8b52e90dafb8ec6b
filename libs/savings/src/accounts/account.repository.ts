import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { entityRows, returnedRows } from '@app/common';
import { AccountEntity } from './account.entity';
import { Account } from './account';

@Injectable()
export class AccountRepository {
  private readonly rows = entityRows(this.accounts.manager.dataSource, AccountEntity, ['createdAt']);

  /**
   * Accounts with their available balance: the balance less signed transfers due on or before
   * `today` (Stockholm) that the execution job has not booked yet. One statement, indexed per account.
   */
  private readonly withAvailable = `
    SELECT ${this.rows.select('a')}, (a.balance - COALESCE(reserved.amount, 0))::text AS available_balance
      FROM account a
      LEFT JOIN LATERAL (
        SELECT sum(t.amount) AS amount FROM transfer t
         WHERE t.account_number = a.account_number AND t.status = 'SIGNED' AND t.transfer_date <= $2::date
      ) reserved ON true`;

  constructor(@InjectRepository(AccountEntity) private readonly accounts: Repository<AccountEntity>) {}

  /** Inserts unless the number is taken; null when it is. */
  async insert(account: Account, manager: EntityManager = this.accounts.manager): Promise<Account | null> {
    const result: unknown = await manager.query(
      `INSERT INTO account (account_number, owner_personal_number, name, currency, balance)
       VALUES ($1, $2, $3, $4, $5::numeric)
       ON CONFLICT (account_number) DO NOTHING
       RETURNING ${this.rows.select()}`,
      [account.accountNumber, account.ownerPersonalNumber, account.name, account.currency, account.balance],
    );
    return this.first(result);
  }

  /** Replaces name, currency and balance of an account the owner already has (fixtures reloaded). */
  async replaceOwned(account: Account, manager: EntityManager = this.accounts.manager): Promise<Account | null> {
    const result: unknown = await manager.query(
      `UPDATE account SET name = $3, currency = $4, balance = $5::numeric
        WHERE account_number = $1 AND owner_personal_number = $2
        RETURNING ${this.rows.select()}`,
      [account.accountNumber, account.ownerPersonalNumber, account.name, account.currency, account.balance],
    );
    return this.first(result);
  }

  /** Every account of an owner, oldest first, with available balances: one query. */
  async listOwnedBy(owner: string, today: string, manager: EntityManager = this.accounts.manager): Promise<Account[]> {
    const result: unknown = await manager.query(`${this.withAvailable} WHERE a.owner_personal_number = $1 ORDER BY a.created_at, a.account_number`, [
      owner,
      today,
    ]);
    return returnedRows<AccountRow>(result).map((row) => this.toAccount(row));
  }

  /** How many accounts each of these owners has (account_owner_idx); owners without any are absent. */
  async countOwnedBy(owners: readonly string[], manager: EntityManager = this.accounts.manager): Promise<Map<string, number>> {
    if (owners.length === 0) return new Map();
    const rows: Array<{ owner_personal_number: string; count: number }> = await manager.query(
      `SELECT owner_personal_number, count(*)::int AS count FROM account WHERE owner_personal_number = ANY($1::bpchar[]) GROUP BY owner_personal_number`,
      [owners],
    );
    return new Map(rows.map((row) => [row.owner_personal_number, Number(row.count)]));
  }

  /** One account of an owner (another owner's is null: not leaked), with its available balance. */
  async findOwned(accountNumber: string, owner: string, today: string, manager: EntityManager = this.accounts.manager): Promise<Account | null> {
    const result: unknown = await manager.query(`${this.withAvailable} WHERE a.account_number = $3 AND a.owner_personal_number = $1`, [
      owner,
      today,
      accountNumber,
    ]);
    return this.first(result);
  }

  /** Debits if the balance covers it (one conditional statement); false when it does not. */
  async debit(accountNumber: string, amount: string, manager: EntityManager): Promise<boolean> {
    const rows = returnedRows(
      await manager.query(
        `UPDATE account SET balance = balance - $2::numeric WHERE account_number = $1 AND balance >= $2::numeric RETURNING account_number`,
        [accountNumber, amount],
      ),
    );
    return rows.length === 1;
  }

  /** Credits a sandbox account in that currency; false when there is none (an account at another bank). */
  async credit(accountNumber: string, amount: string, currency: string, manager: EntityManager): Promise<boolean> {
    const rows = returnedRows(
      await manager.query(
        `UPDATE account SET balance = balance + $2::numeric WHERE account_number = $1 AND currency = $3 RETURNING account_number`,
        [accountNumber, amount, currency],
      ),
    );
    return rows.length === 1;
  }

  private first(result: unknown): Account | null {
    const row = returnedRows<AccountRow>(result)[0];
    return row ? this.toAccount(row) : null;
  }

  /** A row read with `rows.select()`; without an available_balance (a write's RETURNING) all of the balance is. */
  private toAccount(row: AccountRow): Account {
    const account = this.rows.map(row);
    return { ...account, availableBalance: row.available_balance ?? account.balance };
  }
}

/** The row of `rows.select()`, and the available balance beside it where the query computes one. */
type AccountRow = Record<string, unknown> & { available_balance?: string };
