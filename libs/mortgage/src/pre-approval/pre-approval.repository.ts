import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { returnedRows } from '@app/common';
import { PreApprovalEntity } from './pre-approval.entity';
import { PRE_APPROVAL_LIFECYCLE, type PreApprovalStatus } from './pre-approval-status';

const COLUMNS = `id, partner_id, applicants, loan_amount::text AS loan_amount, unsecured_loan_amount::text AS unsecured_loan_amount, offer,
  status, with_unsecured_loan, created_at, expiry_date, processing_at, decided_at, customer_service_reference`;

interface PreApprovalRow {
  id: string;
  partner_id: string;
  applicants: PreApprovalEntity['applicants'];
  loan_amount: string;
  unsecured_loan_amount: string | null;
  offer: PreApprovalEntity['offer'];
  status: PreApprovalStatus;
  with_unsecured_loan: boolean | null;
  created_at: Date;
  expiry_date: Date;
  processing_at: Date | null;
  decided_at: Date | null;
  customer_service_reference: string | null;
}

const toEntity = (row: PreApprovalRow): PreApprovalEntity =>
  Object.assign(new PreApprovalEntity(), {
    id: row.id,
    partnerId: row.partner_id,
    applicants: row.applicants,
    loanAmount: row.loan_amount,
    unsecuredLoanAmount: row.unsecured_loan_amount,
    offer: row.offer,
    status: row.status,
    withUnsecuredLoan: row.with_unsecured_loan,
    createdAt: row.created_at,
    expiryDate: row.expiry_date,
    processingAt: row.processing_at,
    decidedAt: row.decided_at,
    customerServiceReference: row.customer_service_reference,
  });

export interface PreApprovalChanges {
  withUnsecuredLoan?: boolean;
  processingAt?: Date;
  decidedAt?: Date;
  customerServiceReference?: string;
}

@Injectable()
export class PreApprovalRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async insert(preApproval: PreApprovalEntity): Promise<void> {
    await this.dataSource.manager.insert(PreApprovalEntity, preApproval);
  }

  /** The partner's own pre-approval, or null (another partner's is not leaked); `lock` holds it for the transaction. */
  async findOwned(id: string, partnerId: string, manager: EntityManager = this.dataSource.manager, lock = false): Promise<PreApprovalEntity | null> {
    const rows: PreApprovalRow[] = await manager.query(
      `SELECT ${COLUMNS} FROM pre_approval WHERE id = $1 AND partner_id = $2${lock ? ' FOR UPDATE' : ''}`,
      [id, partnerId],
    );
    return rows[0] ? toEntity(rows[0]) : null;
  }

  async lock(id: string, manager: EntityManager): Promise<PreApprovalEntity | null> {
    const rows: PreApprovalRow[] = await manager.query(`SELECT ${COLUMNS} FROM pre_approval WHERE id = $1 FOR UPDATE`, [id]);
    return rows[0] ? toEntity(rows[0]) : null;
  }

  /**
   * Moves a pre-approval to `to` if its status allows it (the lifecycle table), in one conditional
   * statement; false when another request or instance moved it first.
   */
  async move(id: string, to: PreApprovalStatus, changes: PreApprovalChanges, manager: EntityManager = this.dataSource.manager): Promise<boolean> {
    const rows = returnedRows(
      await manager.query(
        `UPDATE pre_approval
            SET status = $2,
                with_unsecured_loan = COALESCE($4, with_unsecured_loan),
                processing_at = COALESCE($5, processing_at),
                decided_at = COALESCE($6, decided_at),
                customer_service_reference = COALESCE($7, customer_service_reference)
          WHERE id = $1 AND status = ANY($3::text[])
          RETURNING id`,
        [
          id,
          to,
          PRE_APPROVAL_LIFECYCLE.before(to),
          changes.withUnsecuredLoan ?? null,
          changes.processingAt ?? null,
          changes.decidedAt ?? null,
          changes.customerServiceReference ?? null,
        ],
      ),
    );
    return rows.length === 1;
  }

  /** PROCESSING since at least `before`: the decision job's work list. */
  async listDueForDecision(before: Date): Promise<PreApprovalEntity[]> {
    const rows: PreApprovalRow[] = await this.dataSource.query(
      `SELECT ${COLUMNS} FROM pre_approval WHERE status = 'PROCESSING' AND processing_at <= $1 ORDER BY processing_at`,
      [before],
    );
    return rows.map(toEntity);
  }

  /** Every pre-approval past its expiry_date that has not reached PROCESSING, in one statement. */
  async expireDue(now: Date): Promise<number> {
    return returnedRows(
      await this.dataSource.query(
        `UPDATE pre_approval SET status = 'EXPIRED' WHERE status = ANY($2::text[]) AND expiry_date <= $1 RETURNING id`,
        [now, PRE_APPROVAL_LIFECYCLE.before('EXPIRED')],
      ),
    ).length;
  }
}
