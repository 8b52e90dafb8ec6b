import { Injectable } from '@nestjs/common';
import { type DueWork, returnedRows, SandboxDb } from '@app/common';
import { RECURRING_LIFECYCLE, type RecurringStatus } from '../transfers/transfer-status';
import { accountsOwnedBy } from '../accounts/account.repository';
import type { TransferScope } from '../transfers/transfer.repository';
import { RecurringTransferEntity } from './recurring-transfer.entity';

@Injectable()
export class RecurringTransferRepository {
  private readonly rows = this.db.rows(RecurringTransferEntity);

  constructor(private readonly db: SandboxDb) {}

  async insert(recurring: RecurringTransferEntity): Promise<void> {
    await this.db.insert(RecurringTransferEntity, recurring);
  }

  /** Deletes every recurring transfer of the owner's accounts; their occurrences must have gone first. */
  async deleteFromAccountsOf(owner: string): Promise<void> {
    await this.db.query(`DELETE FROM recurring_transfer WHERE sandbox_id = $1 AND account_number IN (${accountsOwnedBy('$2')})`, [owner]);
  }

  async findInScope(referenceId: string, scope: TransferScope): Promise<RecurringTransferEntity | null> {
    const result: unknown = await this.db.query(
      `SELECT ${this.rows.select()} FROM recurring_transfer WHERE sandbox_id = $1 AND reference_id = $2 AND account_number = $3 AND owner_personal_number = $4 AND tpp_id = $5`,
      [referenceId, scope.accountNumber, scope.owner, scope.tppId],
    );
    return this.rows.first(result);
  }

  /** Every recurring transfer this TPP ordered for this user, oldest first. */
  async listForCaller(owner: string, tppId: string): Promise<RecurringTransferEntity[]> {
    const result: unknown = await this.db.query(
      `SELECT ${this.rows.select()} FROM recurring_transfer WHERE sandbox_id = $1 AND owner_personal_number = $2 AND tpp_id = $3 ORDER BY created_at, reference_id`,
      [owner, tppId],
    );
    return this.rows.all(result);
  }

  async findSignable(referenceIds: string[], owner: string, tppId: string): Promise<RecurringTransferEntity[]> {
    const result: unknown = await this.db.query(
      `SELECT ${this.rows.select()} FROM recurring_transfer WHERE sandbox_id = $1 AND reference_id = ANY($2::uuid[]) AND owner_personal_number = $3 AND tpp_id = $4`,
      [referenceIds, owner, tppId],
    );
    return this.rows.all(result);
  }

  /** One conditional statement guarded by the lifecycle table; false when the status did not allow it. */
  async move(referenceId: string, to: RecurringStatus): Promise<boolean> {
    const rows = returnedRows(
      await this.db.query(
        `UPDATE recurring_transfer SET status = $3 WHERE sandbox_id = $1 AND reference_id = $2 AND status = ANY($4::text[]) RETURNING reference_id`,
        [referenceId, to, RECURRING_LIFECYCLE.before(to)],
      ),
    );
    return rows.length === 1;
  }

  async markActive(referenceIds: string[], signedAt: Date): Promise<void> {
    await this.db.query(
      `UPDATE recurring_transfer SET status = 'ACTIVE', signed_at = $3 WHERE sandbox_id = $1 AND reference_id = ANY($2::uuid[]) AND status = 'AWAITING_SIGNATURE'`,
      [referenceIds, signedAt],
    );
  }

  /**
   * The sandboxes with an active recurring transfer whose next occurrence falls on or before their
   * own Stockholm today, or past its end_date (it ends): the work of the execution job's booking of
   * occurrences, for its scheduled pass over every sandbox (contract §10, §13). The next date is
   * occurrenceDate in SQL: a date plus n months keeps its day of month, or the month's last day.
   */
  dueWork(): DueWork {
    const next = `CASE r.frequency WHEN 'WEEKLY' THEN r.transfer_date + 7 * r.occurrences_booked
                  ELSE (r.transfer_date + make_interval(months => r.occurrences_booked * CASE r.frequency WHEN 'MONTHLY' THEN 1 WHEN 'QUARTERLY' THEN 3 ELSE 12 END))::date END`;
    return {
      sql: `SELECT r.sandbox_id FROM recurring_transfer r JOIN sandbox_now n ON n.sandbox_id = r.sandbox_id
             WHERE r.status = 'ACTIVE'
               AND (${next} <= (n.now AT TIME ZONE 'Europe/Stockholm')::date OR ${next} > r.end_date)`,
    };
  }

  async listActiveIds(): Promise<string[]> {
    const rows: Array<{ reference_id: string }> = await this.db.query(`SELECT reference_id FROM recurring_transfer WHERE sandbox_id = $1 AND status = 'ACTIVE'`);
    return rows.map((r) => r.reference_id);
  }

  /** Locks an ACTIVE recurring transfer for booking its occurrences; null when held elsewhere or no longer ACTIVE. */
  async lockActive(referenceId: string): Promise<RecurringTransferEntity | null> {
    const result: unknown = await this.db.query(
      `SELECT ${this.rows.select()} FROM recurring_transfer WHERE sandbox_id = $1 AND reference_id = $2 AND status = 'ACTIVE' FOR UPDATE SKIP LOCKED`,
      [referenceId],
    );
    return this.rows.first(result);
  }

  async recordOccurrences(referenceId: string, booked: number, ended: boolean): Promise<void> {
    await this.db.query(
      `UPDATE recurring_transfer SET occurrences_booked = $3, status = CASE WHEN $4 THEN 'ENDED' ELSE status END WHERE sandbox_id = $1 AND reference_id = $2`,
      [referenceId, booked, ended],
    );
  }
}
