import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { returnedRows } from '@app/common';
import { RECURRING_LIFECYCLE, type RecurringStatus } from '../transfers/transfer-status';
import type { TransferScope } from '../transfers/transfer.repository';
import { RecurringTransferEntity } from './recurring-transfer.entity';

const COLUMNS = `reference_id, account_number, owner_personal_number, tpp_id, amount::text AS amount, currency,
  to_char(transfer_date, 'YYYY-MM-DD') AS transfer_date, to_char(end_date, 'YYYY-MM-DD') AS end_date, frequency,
  recipient_account_number, recipient_name, counter_part_statement, statement, status, occurrences_booked, created_at, signed_at`;

interface RecurringRow {
  reference_id: string;
  account_number: string;
  owner_personal_number: string;
  tpp_id: string;
  amount: string;
  currency: string;
  transfer_date: string;
  end_date: string | null;
  frequency: RecurringTransferEntity['frequency'];
  recipient_account_number: string;
  recipient_name: string | null;
  counter_part_statement: string | null;
  statement: string | null;
  status: RecurringStatus;
  occurrences_booked: number;
  created_at: Date;
  signed_at: Date | null;
}

function toRecurring(row: RecurringRow): RecurringTransferEntity {
  return Object.assign(new RecurringTransferEntity(), {
    referenceId: row.reference_id,
    accountNumber: row.account_number,
    ownerPersonalNumber: row.owner_personal_number,
    tppId: row.tpp_id,
    amount: row.amount,
    currency: row.currency,
    transferDate: row.transfer_date,
    endDate: row.end_date,
    frequency: row.frequency,
    recipientAccountNumber: row.recipient_account_number,
    recipientName: row.recipient_name,
    counterPartStatement: row.counter_part_statement,
    statement: row.statement,
    status: row.status,
    occurrencesBooked: row.occurrences_booked,
    createdAt: row.created_at,
    signedAt: row.signed_at,
  });
}

@Injectable()
export class RecurringTransferRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async insert(recurring: RecurringTransferEntity): Promise<void> {
    await this.dataSource.manager.insert(RecurringTransferEntity, recurring);
  }

  async findInScope(referenceId: string, scope: TransferScope): Promise<RecurringTransferEntity | null> {
    const rows: RecurringRow[] = await this.dataSource.query(
      `SELECT ${COLUMNS} FROM recurring_transfer WHERE reference_id = $1 AND account_number = $2 AND owner_personal_number = $3 AND tpp_id = $4`,
      [referenceId, scope.accountNumber, scope.owner, scope.tppId],
    );
    return rows[0] ? toRecurring(rows[0]) : null;
  }

  /** Every recurring transfer this TPP ordered for this user, oldest first. */
  async listForCaller(owner: string, tppId: string): Promise<RecurringTransferEntity[]> {
    const rows: RecurringRow[] = await this.dataSource.query(
      `SELECT ${COLUMNS} FROM recurring_transfer WHERE owner_personal_number = $1 AND tpp_id = $2 ORDER BY created_at, reference_id`,
      [owner, tppId],
    );
    return rows.map(toRecurring);
  }

  async findSignable(referenceIds: string[], owner: string, tppId: string): Promise<RecurringTransferEntity[]> {
    const rows: RecurringRow[] = await this.dataSource.query(
      `SELECT ${COLUMNS} FROM recurring_transfer WHERE reference_id = ANY($1::uuid[]) AND owner_personal_number = $2 AND tpp_id = $3`,
      [referenceIds, owner, tppId],
    );
    return rows.map(toRecurring);
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
    const rows: RecurringRow[] = await manager.query(
      `SELECT ${COLUMNS} FROM recurring_transfer WHERE reference_id = $1 AND status = 'ACTIVE' FOR UPDATE SKIP LOCKED`,
      [referenceId],
    );
    return rows[0] ? toRecurring(rows[0]) : null;
  }

  async recordOccurrences(referenceId: string, booked: number, ended: boolean, manager: EntityManager): Promise<void> {
    await manager.query(
      `UPDATE recurring_transfer SET occurrences_booked = $2, status = CASE WHEN $3 THEN 'ENDED' ELSE status END WHERE reference_id = $1`,
      [referenceId, booked, ended],
    );
  }
}
