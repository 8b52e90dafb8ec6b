import { Column, Entity, PrimaryColumn } from 'typeorm';
import { SandboxIdColumn } from '@app/common';
import type { RejectionReason, TransferStatus } from './transfer-status';

/** A single transfer ordered through PIS (bank §4.3; contract §10), or one occurrence of a recurring one. */
@Entity({ name: 'transfer' })
export class TransferEntity {
  /** The sandbox the row belongs to (contract §13): filled and matched by SandboxDb, never read. */
  @SandboxIdColumn()
  sandboxId?: string;

  @PrimaryColumn({ name: 'reference_id', type: 'uuid' })
  referenceId: string;

  @Column({ name: 'account_number', type: 'text' })
  accountNumber: string;

  @Column({ name: 'owner_personal_number', type: 'char', length: 12 })
  ownerPersonalNumber: string;

  /** The TPP that ordered it; another TPP's PIS calls do not see it (contract §2). */
  @Column({ name: 'tpp_id', type: 'uuid' })
  tppId: string;

  @Column({ name: 'recurring_transfer_id', type: 'uuid', nullable: true })
  recurringTransferId: string | null;

  /** Exact decimal text, e.g. "100.50". */
  @Column({ type: 'numeric', precision: 18, scale: 2 })
  amount: string;

  @Column({ type: 'char', length: 3 })
  currency: string;

  @Column({ name: 'transfer_date', type: 'date' })
  transferDate: string;

  @Column({ name: 'recipient_account_number', type: 'text' })
  recipientAccountNumber: string;

  @Column({ name: 'recipient_name', type: 'text', nullable: true })
  recipientName: string | null;

  @Column({ name: 'counter_part_statement', type: 'text', nullable: true })
  counterPartStatement: string | null;

  @Column({ type: 'text', nullable: true })
  statement: string | null;

  @Column({ type: 'text' })
  status: TransferStatus;

  @Column({ name: 'rejection_reason', type: 'text', nullable: true })
  rejectionReason: RejectionReason | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'signed_at', type: 'timestamptz', nullable: true })
  signedAt: Date | null;

  /** The execution instant (00:00 Stockholm on its date, or the signing if later). */
  @Column({ name: 'executed_at', type: 'timestamptz', nullable: true })
  executedAt: Date | null;
}
