import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { entityRows, returnedRows } from '@app/common';
import { PreApprovalEntity } from './pre-approval.entity';
import { PRE_APPROVAL_LIFECYCLE, type PreApprovalStatus } from './pre-approval-status';

export interface PreApprovalChanges {
  withUnsecuredLoan?: boolean;
  processingAt?: Date;
  decidedAt?: Date;
  customerServiceReference?: string;
}

@Injectable()
export class PreApprovalRepository {
  private readonly rows = entityRows(this.dataSource, PreApprovalEntity);

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async insert(preApproval: PreApprovalEntity): Promise<void> {
    await this.dataSource.manager.insert(PreApprovalEntity, preApproval);
  }

  /** The partner's own pre-approval, or null (another partner's is not leaked); `lock` holds it for the transaction. */
  async findOwned(id: string, partnerId: string, manager: EntityManager = this.dataSource.manager, lock = false): Promise<PreApprovalEntity | null> {
    const result: unknown = await manager.query(
      `SELECT ${this.rows.select()} FROM pre_approval WHERE id = $1 AND partner_id = $2${lock ? ' FOR UPDATE' : ''}`,
      [id, partnerId],
    );
    return this.rows.first(result);
  }

  async lock(id: string, manager: EntityManager): Promise<PreApprovalEntity | null> {
    const result: unknown = await manager.query(`SELECT ${this.rows.select()} FROM pre_approval WHERE id = $1 FOR UPDATE`, [id]);
    return this.rows.first(result);
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
    const result: unknown = await this.dataSource.query(
      `SELECT ${this.rows.select()} FROM pre_approval WHERE status = 'PROCESSING' AND processing_at <= $1 ORDER BY processing_at`,
      [before],
    );
    return this.rows.all(result);
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
