import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { SandboxIdColumn } from '@app/common';

/** A booked entry on an account: negative for a debit (contract §10). */
@Entity({ name: 'account_transaction' })
export class AccountTransactionEntity {
  /** The sandbox the row belongs to (contract §13): filled and matched by SandboxDb, never read. */
  @SandboxIdColumn()
  sandboxId?: string;

  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'account_number', type: 'text' })
  accountNumber: string;

  @Column({ name: 'reference_id', type: 'uuid' })
  referenceId: string;

  /** Exact decimal text, e.g. "-100.50". */
  @Column({ type: 'numeric', precision: 18, scale: 2 })
  amount: string;

  @Column({ type: 'char', length: 3 })
  currency: string;

  @Column({ name: 'booking_date', type: 'date' })
  bookingDate: string;

  @Column({ name: 'booked_at', type: 'timestamptz' })
  bookedAt: Date;

  @Column({ type: 'text' })
  counterpart: string;
}
