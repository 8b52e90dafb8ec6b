import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';

/** A booked entry on an account: negative for a debit (contract §10). */
export interface AccountTransaction {
  referenceId: string;
  amount: string;
  currency: string;
  bookingDate: string;
  counterpart: string;
}

@Injectable()
export class AccountTransactionRepository {
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
    const rows: Array<{ reference_id: string; amount: string; currency: string; booking_date: string; counterpart: string }> = await this.dataSource.query(
      `SELECT reference_id, amount::text AS amount, currency, to_char(booking_date, 'YYYY-MM-DD') AS booking_date, counterpart
         FROM account_transaction WHERE account_number = $1 ORDER BY booked_at DESC, id`,
      [accountNumber],
    );
    return rows.map((r) => ({ referenceId: r.reference_id, amount: r.amount, currency: r.currency, bookingDate: r.booking_date, counterpart: r.counterpart }));
  }
}
