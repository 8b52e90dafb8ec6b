import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { entityRows, returnedRows } from '@app/common';
import { RECURRING_LIFECYCLE, type RecurringStatus } from '../transfers/transfer-status';
import type { TransferScope } from '../transfers/transfer.repository';
import { RecurringTransferEntity } from './recurring-transfer.entity';

@Injectable()
export class RecurringTransferRepository {
  private readonly rows = entityRows(this.dataSource, RecurringTransferEntity);

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async insert(recurring: RecurringTransferEntity): Promise<void> {
    await this.dataSource.manager.insert(RecurringTransferEntity, recurring);
  }

  async findInScope(referenceId: string, scope: TransferScope): Promise<RecurringTransferEntity | null> {
    const result: unknown = await this.dataSource.query(
      `SELECT ${this.rows.select()} FROM recurring_transfer WHERE reference_id = $1 AND account_number = $2 AND owner_personal_number = $3 AND tpp_id = $4`,
      [referenceId, scope.accountNumber, scope.owner, scope.tppId],
    );
    return this.rows.first(result);
  }

  /** Every recurring transfer this TPP ordered for this user, oldest first. */
  async listForCaller(owner: string, tppId: string): Promise<RecurringTransferEntity[]> {
    const result: unknown = await this.dataSource.query(
      `SELECT ${this.rows.select()} FROM recurring_transfer WHERE owner_personal_number = $1 AND tpp_id = $2 ORDER BY created_at, reference_id`,
      [owner, tppId],
    );
    return this.rows.all(result);
  }

  async findSignable(referenceIds: string[], owner: string, tppId: string): Promise<RecurringTransferEntity[]> {
    const result: unknown = await this.dataSource.query(
      `SELECT ${this.rows.select()} FROM recurring_transfer WHERE reference_id = ANY($1::uuid[]) AND owner_personal_number = $2 AND tpp_id = $3`,
      [referenceIds, owner, tppId],
    );
    return this.rows.all(result);
  }

  /** One conditional statement guarded by the lifecycle table; false when the status did not allow it. */
  async move(referenceId: string, to: RecurringStatus): Promise<boolean> {
    const rows = returnedRows(
      await this.dataSource.query(
        `UPDATE recurring_transfer SET status = $2 WHERE reference_id = $1 AND status = ANY($3::text[]) RETURNING reference_id`,
        [referenceId, to, RECURRING_LIFECYCLE.before(to)],
      ),
    );
    return rows.length === 1;
  }

  async markActive(referenceIds: string[], signedAt: Date, manager: EntityManager): Promise<void> {
    await manager.query(
      `UPDATE recurring_transfer SET status = 'ACTIVE', signed_at = $2 WHERE reference_id = ANY($1::uuid[]) AND status = 'AWAITING_SIGNATURE'`,
      [referenceIds, signedAt],
    );
  }

  async listActiveIds(): Promise<string[]> {
    const rows: Array<{ reference_id: string }> = await this.dataSource.query(`SELECT reference_id FROM recurring_transfer WHERE status = 'ACTIVE'`);
    return rows.map((r) => r.reference_id);
  }

  /** Locks an ACTIVE recurring transfer for booking its occurrences; null when held elsewhere or no longer ACTIVE. */
  async lockActive(referenceId: string, manager: EntityManager): Promise<RecurringTransferEntity | null> {
    const result: unknown = await manager.query(
      `SELECT ${this.rows.select()} FROM recurring_transfer WHERE reference_id = $1 AND status = 'ACTIVE' FOR UPDATE SKIP LOCKED`,
      [referenceId],
    );
    return this.rows.first(result);
  }

  async recordOccurrences(referenceId: string, booked: number, ended: boolean, manager: EntityManager): Promise<void> {
    await manager.query(
      `UPDATE recurring_transfer SET occurrences_booked = $2, status = CASE WHEN $3 THEN 'ENDED' ELSE status END WHERE reference_id = $1`,
      [referenceId, booked, ended],
    );
  }
}
