import { Injectable } from '@nestjs/common';
import { returnedRows, SandboxDb } from '@app/common';
import { AccountEntity } from './account.entity';
import { Account } from './account';

/** The account numbers of the owner `personalNumber` (an SQL expression) in the statement's sandbox (`$1`), for `… IN (accountsOwnedBy('$2'))`. */
export const accountsOwnedBy = (personalNumber: string): string =>
  `SELECT a.account_number FROM account a WHERE a.sandbox_id = $1 AND a.owner_personal_number = ${personalNumber}`;

@Injectable()
export class AccountRepository {
  private readonly rows = this.db.rows(AccountEntity, ['createdAt']);

  /**
   * Accounts with their available balance: the balance less signed transfers due on or before
   * `today` (Stockholm) that the execution job has not booked yet. One statement, indexed per account;
   * callers add their conditions with AND.
   */
  private readonly withAvailable = `
    SELECT ${this.rows.select('a')}, (a.balance - COALESCE(reserved.amount, 0))::text AS available_balance
      FROM account a
      LEFT JOIN LATERAL (
        SELECT sum(t.amount) AS amount FROM transfer t
         WHERE t.sandbox_id = a.sandbox_id AND t.account_number = a.account_number AND t.status = 'SIGNED' AND t.transfer_date <= $3::date
      ) reserved ON true
     WHERE a.sandbox_id = $1`;

  constructor(private readonly db: SandboxDb) {}

  /** Inserts unless the number is taken; null when it is. */
  async insert(account: Account): Promise<Account | null> {
    const result: unknown = await this.db.query(
      `INSERT INTO account (sandbox_id, account_number, owner_personal_number, name, currency, balance)
       VALUES ($1, $2, $3, $4, $5, $6::numeric)
       ON CONFLICT (sandbox_id, account_number) DO NOTHING
       RETURNING ${this.rows.select()}`,
      [account.accountNumber, account.ownerPersonalNumber, account.name, account.currency, account.balance],
    );
    return this.first(result);
  }

  /** Deletes every account of the owner; what refers to them must have gone first (AccountService.forgetOwner). */
  async deleteOwnedBy(owner: string): Promise<void> {
    await this.db.query(`DELETE FROM account WHERE sandbox_id = $1 AND owner_personal_number = $2`, [owner]);
  }

  /** Every account of an owner, oldest first, with available balances: one query. */
  async listOwnedBy(owner: string, today: string): Promise<Account[]> {
    const result: unknown = await this.db.query(`${this.withAvailable} AND a.owner_personal_number = $2 ORDER BY a.created_at, a.account_number`, [
      owner,
      today,
    ]);
    return returnedRows<AccountRow>(result).map((row) => this.toAccount(row));
  }

  /** How many accounts each of these owners has (account_owner_idx); owners without any are absent. */
  async countOwnedBy(owners: readonly string[]): Promise<Map<string, number>> {
    if (owners.length === 0) return new Map();
    const rows: Array<{ owner_personal_number: string; count: number }> = await this.db.query(
      `SELECT owner_personal_number, count(*)::int AS count FROM account WHERE sandbox_id = $1 AND owner_personal_number = ANY($2::bpchar[]) GROUP BY owner_personal_number`,
      [owners],
    );
    return new Map(rows.map((row) => [row.owner_personal_number, Number(row.count)]));
  }

  /** One account of an owner (another owner's is null: not leaked), with its available balance. */
  async findOwned(accountNumber: string, owner: string, today: string): Promise<Account | null> {
    const result: unknown = await this.db.query(`${this.withAvailable} AND a.account_number = $4 AND a.owner_personal_number = $2`, [
      owner,
      today,
      accountNumber,
    ]);
    return this.first(result);
  }

  /** Debits if the balance covers it (one conditional statement); false when it does not. */
  async debit(accountNumber: string, amount: string): Promise<boolean> {
    const rows = returnedRows(
      await this.db.query(
        `UPDATE account SET balance = balance - $3::numeric WHERE sandbox_id = $1 AND account_number = $2 AND balance >= $3::numeric RETURNING account_number`,
        [accountNumber, amount],
      ),
    );
    return rows.length === 1;
  }

  /** Credits a sandbox account in that currency; false when there is none (an account at another bank). */
  async credit(accountNumber: string, amount: string, currency: string): Promise<boolean> {
    const rows = returnedRows(
      await this.db.query(
        `UPDATE account SET balance = balance + $3::numeric WHERE sandbox_id = $1 AND account_number = $2 AND currency = $4 RETURNING account_number`,
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
