import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';
import { SandboxIdColumn } from '@app/common';

/** A PSU's account (contract §8, §10). Amounts are numeric, never floating point. */
@Entity({ name: 'account' })
export class AccountEntity {
  /** The sandbox the row belongs to (contract §13): filled and matched by SandboxDb, never read. */
  @SandboxIdColumn()
  sandboxId?: string;

  /** Clearing number and account number, digits only (contract §10). */
  @PrimaryColumn({ name: 'account_number', type: 'text' })
  accountNumber: string;

  @Index()
  @Column({ name: 'owner_personal_number', type: 'char', length: 12 })
  ownerPersonalNumber: string;

  @Column({ type: 'text' })
  name: string;

  @Column({ type: 'char', length: 3 })
  currency: string;

  /** Decimal text as PostgreSQL numeric(18,2) returns it, e.g. "5000.00". */
  @Column({ type: 'numeric', precision: 18, scale: 2 })
  balance: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
