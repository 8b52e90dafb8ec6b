import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { SandboxIdColumn } from '@app/common';
import type { EidBehaviour } from '@app/eid';

export const CREDIT_DECISIONS = ['APPROVED', 'REJECTED'] as const;
export type CreditDecision = (typeof CREDIT_DECISIONS)[number];

/** A sandbox PSU (contract §4): who can authenticate, sign and own accounts. */
@Entity({ name: 'sandbox_user' })
export class SandboxUserEntity {
  /** The sandbox the row belongs to (contract §13): filled and matched by SandboxDb, never read. */
  @SandboxIdColumn()
  sandboxId?: string;

  /** 12 digits YYYYMMDDNNNC. */
  @PrimaryColumn({ name: 'personal_number', type: 'char', length: 12 })
  personalNumber: string;

  @Column({ type: 'text' })
  name: string;

  @Column({ name: 'kyc_completed', type: 'boolean' })
  kycCompleted: boolean;

  @Column({ name: 'eid_behaviour', type: 'text' })
  eidBehaviour: EidBehaviour;

  /** A signing is open with another bank: every partner signing start is 409 (contract §4). */
  @Column({ name: 'busy_elsewhere', type: 'boolean' })
  busyElsewhere: boolean;

  @Column({ name: 'credit_decision', type: 'text', nullable: true })
  creditDecision: CreditDecision | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
