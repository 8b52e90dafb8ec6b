import { Column, Entity, PrimaryColumn } from 'typeorm';
import { SandboxIdColumn } from '@app/common';
import type { Offer } from './offer';
import type { PreApprovalStatus } from './pre-approval-status';

export interface Applicant {
  personal_number: string;
  /** Whole SEK. */
  yearly_income: number;
}

/** A mortgage pre-approval of a partner (bank §2.6, §3.3, §4.5; contract §9). */
@Entity({ name: 'pre_approval' })
export class PreApprovalEntity {
  /** The sandbox the row belongs to (contract §13): filled and matched by SandboxDb, never read. */
  @SandboxIdColumn()
  sandboxId?: string;

  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'partner_id', type: 'uuid' })
  partnerId: string;

  @Column({ type: 'jsonb' })
  applicants: Applicant[];

  /** Whole SEK. */
  @Column({ name: 'loan_amount', type: 'bigint' })
  loanAmount: string;

  @Column({ name: 'unsecured_loan_amount', type: 'bigint', nullable: true })
  unsecuredLoanAmount: string | null;

  @Column({ type: 'jsonb' })
  offer: Offer;

  @Column({ type: 'text' })
  status: PreApprovalStatus;

  @Column({ name: 'with_unsecured_loan', type: 'boolean', nullable: true })
  withUnsecuredLoan: boolean | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'expiry_date', type: 'timestamptz' })
  expiryDate: Date;

  @Column({ name: 'processing_at', type: 'timestamptz', nullable: true })
  processingAt: Date | null;

  @Column({ name: 'decided_at', type: 'timestamptz', nullable: true })
  decidedAt: Date | null;

  @Column({ name: 'customer_service_reference', type: 'text', nullable: true })
  customerServiceReference: string | null;
}
