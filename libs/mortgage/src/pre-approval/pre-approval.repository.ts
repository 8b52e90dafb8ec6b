import { Injectable } from '@nestjs/common';
import { type DueWork, returnedRows, SandboxDb } from '@app/common';
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
  private readonly rows = this.db.rows(PreApprovalEntity);

  constructor(private readonly db: SandboxDb) {}

  async insert(preApproval: PreApprovalEntity): Promise<void> {
    await this.db.insert(PreApprovalEntity, preApproval);
  }

  /** The partner's own pre-approval, or null (another partner's is not leaked); `lock` holds it for the transaction. */
  async findOwned(id: string, partnerId: string, lock = false): Promise<PreApprovalEntity | null> {
    const result: unknown = await this.db.query(
      `SELECT ${this.rows.select()} FROM pre_approval WHERE sandbox_id = $1 AND id = $2 AND partner_id = $3${lock ? ' FOR UPDATE' : ''}`,
      [id, partnerId],
    );
    return this.rows.first(result);
  }

  async lock(id: string): Promise<PreApprovalEntity | null> {
    const result: unknown = await this.db.query(`SELECT ${this.rows.select()} FROM pre_approval WHERE sandbox_id = $1 AND id = $2 FOR UPDATE`, [id]);
    return this.rows.first(result);
  }

  /**
   * Moves a pre-approval to `to` if its status allows it (the lifecycle table), in one conditional
   * statement; false when another request or instance moved it first.
   */
  async move(id: string, to: PreApprovalStatus, changes: PreApprovalChanges): Promise<boolean> {
    const rows = returnedRows(
      await this.db.query(
        `UPDATE pre_approval
            SET status = $3,
                with_unsecured_loan = COALESCE($5, with_unsecured_loan),
                processing_at = COALESCE($6, processing_at),
                decided_at = COALESCE($7, decided_at),
                customer_service_reference = COALESCE($8, customer_service_reference)
          WHERE sandbox_id = $1 AND id = $2 AND status = ANY($4::text[])
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

  /**
   * The sandboxes with a pre-approval PROCESSING for `delayS` of its own sandbox time: the decision
   * job's scheduled pass over every sandbox (contract §13 Time and jobs).
   */
  dueForDecisionWork(delayS: number): DueWork {
    return {
      sql: `SELECT p.sandbox_id FROM pre_approval p JOIN sandbox_now n ON n.sandbox_id = p.sandbox_id
             WHERE p.status = 'PROCESSING' AND p.processing_at <= n.now - make_interval(secs => $1)`,
      parameters: [delayS],
    };
  }

  /** The sandboxes with a pre-approval expireDue would expire now, each by its own clock (contract §13). */
  dueForExpiryWork(): DueWork {
    // The statuses as literals, so the partial index pre_approval_expiry_idx serves the search.
    const statuses = PRE_APPROVAL_LIFECYCLE.before('EXPIRED').map((s) => `'${s}'`).join(', ');
    return {
      sql: `SELECT p.sandbox_id FROM pre_approval p JOIN sandbox_now n ON n.sandbox_id = p.sandbox_id
             WHERE p.status IN (${statuses}) AND p.expiry_date <= n.now`,
    };
  }

  /** PROCESSING since at least `before`: the decision job's work list. */
  async listDueForDecision(before: Date): Promise<PreApprovalEntity[]> {
    const result: unknown = await this.db.query(
      `SELECT ${this.rows.select()} FROM pre_approval WHERE sandbox_id = $1 AND status = 'PROCESSING' AND processing_at <= $2 ORDER BY processing_at`,
      [before],
    );
    return this.rows.all(result);
  }

  /** Every pre-approval past its expiry_date that has not reached PROCESSING, in one statement. */
  async expireDue(now: Date): Promise<number> {
    return returnedRows(
      await this.db.query(
        `UPDATE pre_approval SET status = 'EXPIRED' WHERE sandbox_id = $1 AND status = ANY($3::text[]) AND expiry_date <= $2 RETURNING id`,
        [now, PRE_APPROVAL_LIFECYCLE.before('EXPIRED')],
      ),
    ).length;
  }
}
