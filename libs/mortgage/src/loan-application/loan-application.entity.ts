import { Column, Entity, PrimaryColumn } from 'typeorm';
import { SandboxIdColumn } from '@app/common';
import type { Applicant } from '../pre-approval/pre-approval.entity';
import type { LoanApplicationStatus } from './loan-application-status';

/** A mortgage loan application 2.0 of a partner (bank §9 rule 6; contract §9). */
@Entity({ name: 'loan_application' })
export class LoanApplicationEntity {
  /** The sandbox the row belongs to (contract §13): filled and matched by SandboxDb, never read. */
  @SandboxIdColumn()
  sandboxId?: string;

  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'partner_id', type: 'uuid' })
  partnerId: string;

  /** The main applicant first. */
  @Column({ type: 'jsonb' })
  applicants: Applicant[];

  @Column({ name: 'loan_amount', type: 'bigint' })
  loanAmount: string;

  @Column({ type: 'text' })
  status: LoanApplicationStatus;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'processing_at', type: 'timestamptz', nullable: true })
  processingAt: Date | null;

  @Column({ name: 'decided_at', type: 'timestamptz', nullable: true })
  decidedAt: Date | null;

  @Column({ name: 'customer_service_reference', type: 'text', nullable: true })
  customerServiceReference: string | null;
}
