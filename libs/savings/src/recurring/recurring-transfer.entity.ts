import { Column, Entity, PrimaryColumn } from 'typeorm';
import { SandboxIdColumn } from '@app/common';
import type { RecurringStatus } from '../transfers/transfer-status';
import type { Frequency } from './schedule';

/** A recurring transfer (bank §4.3; contract §10): its occurrences are booked as transfers. */
@Entity({ name: 'recurring_transfer' })
export class RecurringTransferEntity {
  /** The sandbox the row belongs to (contract §13): filled and matched by SandboxDb, never read. */
  @SandboxIdColumn()
  sandboxId?: string;

  @PrimaryColumn({ name: 'reference_id', type: 'uuid' })
  referenceId: string;

  @Column({ name: 'account_number', type: 'text' })
  accountNumber: string;

  @Column({ name: 'owner_personal_number', type: 'char', length: 12 })
  ownerPersonalNumber: string;

  @Column({ name: 'tpp_id', type: 'uuid' })
  tppId: string;

  @Column({ type: 'numeric', precision: 18, scale: 2 })
  amount: string;

  @Column({ type: 'char', length: 3 })
  currency: string;

  /** The first occurrence. */
  @Column({ name: 'transfer_date', type: 'date' })
  transferDate: string;

  @Column({ name: 'end_date', type: 'date', nullable: true })
  endDate: string | null;

  @Column({ type: 'text' })
  frequency: Frequency;

  @Column({ name: 'recipient_account_number', type: 'text' })
  recipientAccountNumber: string;

  @Column({ name: 'recipient_name', type: 'text', nullable: true })
  recipientName: string | null;

  @Column({ name: 'counter_part_statement', type: 'text', nullable: true })
  counterPartStatement: string | null;

  @Column({ type: 'text', nullable: true })
  statement: string | null;

  @Column({ type: 'text' })
  status: RecurringStatus;

  /** How many occurrences have been booked; the next is occurrence number `occurrences_booked`. */
  @Column({ name: 'occurrences_booked', type: 'integer' })
  occurrencesBooked: number;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'signed_at', type: 'timestamptz', nullable: true })
  signedAt: Date | null;
}
