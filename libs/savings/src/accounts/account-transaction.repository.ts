import { Injectable } from '@nestjs/common';
import { SandboxDb } from '@app/common';
import { AccountTransactionEntity } from './account-transaction.entity';
import { accountsOwnedBy } from './account.repository';

/** A booked entry as AIS shows it: negative for a debit (contract §10). */
export type AccountTransaction = Omit<AccountTransactionEntity, 'id' | 'accountNumber' | 'bookedAt'>;

@Injectable()
export class AccountTransactionRepository {
  private readonly rows = this.db.rows(AccountTransactionEntity, ['id', 'accountNumber', 'bookedAt']);

  constructor(private readonly db: SandboxDb) {}

  async insert(accountNumber: string, entry: AccountTransaction, bookedAt: Date): Promise<void> {
    await this.db.query(
      `INSERT INTO account_transaction (sandbox_id, account_number, reference_id, amount, currency, booking_date, booked_at, counterpart)
       VALUES ($1, $2, $3, $4::numeric, $5, $6::date, $7, $8)`,
      [accountNumber, entry.referenceId, entry.amount, entry.currency, entry.bookingDate, bookedAt, entry.counterpart],
    );
  }

  /** Deletes the entries booked on the owner's accounts (entries elsewhere that name their transfers stay: another account's record). */
  async deleteOnAccountsOf(owner: string): Promise<void> {
    await this.db.query(`DELETE FROM account_transaction WHERE sandbox_id = $1 AND account_number IN (${accountsOwnedBy('$2')})`, [owner]);
  }

  /** Booked entries of an account, by execution instant, newest first. */
  async listByAccount(accountNumber: string): Promise<AccountTransaction[]> {
    return this.rows.all(
      await this.db.query(`SELECT ${this.rows.select()} FROM account_transaction WHERE sandbox_id = $1 AND account_number = $2 ORDER BY booked_at DESC, id`, [accountNumber]),
    );
  }
}
