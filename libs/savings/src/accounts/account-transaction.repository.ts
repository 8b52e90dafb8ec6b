import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { entityRows } from '@app/common';
import { AccountTransactionEntity } from './account-transaction.entity';

/** A booked entry as AIS shows it: negative for a debit (contract §10). */
export type AccountTransaction = Omit<AccountTransactionEntity, 'id' | 'accountNumber' | 'bookedAt'>;

@Injectable()
export class AccountTransactionRepository {
  private readonly rows = entityRows(this.dataSource, AccountTransactionEntity, ['id', 'accountNumber', 'bookedAt']);

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async insert(accountNumber: string, entry: AccountTransaction, bookedAt: Date, manager: EntityManager): Promise<void> {
    await manager.query(
      `INSERT INTO account_transaction (account_number, reference_id, amount, currency, booking_date, booked_at, counterpart)
       VALUES ($1, $2, $3::numeric, $4, $5::date, $6, $7)`,
      [accountNumber, entry.referenceId, entry.amount, entry.currency, entry.bookingDate, bookedAt, entry.counterpart],
    );
  }

  /** Booked entries of an account, by execution instant, newest first. */
  async listByAccount(accountNumber: string): Promise<AccountTransaction[]> {
    return this.rows.all(
      await this.dataSource.query(`SELECT ${this.rows.select()} FROM account_transaction WHERE account_number = $1 ORDER BY booked_at DESC, id`, [accountNumber]),
    );
  }
}
