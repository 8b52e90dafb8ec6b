import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { returnedRows } from '@app/common';
import { TransferEntity } from './transfer.entity';
import { TRANSFER_LIFECYCLE, type TransferStatus } from './transfer-status';

const COLUMNS = `reference_id, account_number, owner_personal_number, tpp_id, recurring_transfer_id, amount::text AS amount, currency,
  to_char(transfer_date, 'YYYY-MM-DD') AS transfer_date, recipient_account_number, recipient_name, counter_part_statement, statement,
  status, rejection_reason, created_at, signed_at, executed_at`;

interface TransferRow {
  reference_id: string;
  account_number: string;
  owner_personal_number: string;
  tpp_id: string;
  recurring_transfer_id: string | null;
  amount: string;
  currency: string;
  transfer_date: string;
  recipient_account_number: string;
  recipient_name: string | null;
  counter_part_statement: string | null;
  statement: string | null;
  status: TransferEntity['status'];
  rejection_reason: TransferEntity['rejectionReason'];
  created_at: Date;
  signed_at: Date | null;
  executed_at: Date | null;
}

export function toTransfer(row: TransferRow): TransferEntity {
  return Object.assign(new TransferEntity(), {
    referenceId: row.reference_id,
    accountNumber: row.account_number,
    ownerPersonalNumber: row.owner_personal_number,
    tppId: row.tpp_id,
    recurringTransferId: row.recurring_transfer_id,
    amount: row.amount,
    currency: row.currency,
    transferDate: row.transfer_date,
    recipientAccountNumber: row.recipient_account_number,
    recipientName: row.recipient_name,
    counterPartStatement: row.counter_part_statement,
    statement: row.statement,
    status: row.status,
    rejectionReason: row.rejection_reason,
    createdAt: row.created_at,
    signedAt: row.signed_at,
    executedAt: row.executed_at,
  });
}

/** Where a PIS caller may see a transfer: its own TPP's, for its own user, on that account (contract §2). */
export interface TransferScope {
  accountNumber: string;
  owner: string;
  tppId: string;
}

@Injectable()
export class TransferRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async insert(transfer: TransferEntity, manager: EntityManager = this.dataSource.manager): Promise<void> {
    await manager.insert(TransferEntity, transfer);
  }

  /** An occurrence of a recurring transfer; the unique (recurring, date) key makes a second booking a no-op. */
  async insertOccurrence(transfer: TransferEntity, manager: EntityManager): Promise<void> {
    await manager
      .createQueryBuilder()
      .insert()
      .into(TransferEntity)
      .values(transfer)
      .orIgnore()
      .execute();
  }

  async findInScope(referenceId: string, scope: TransferScope): Promise<TransferEntity | null> {
    const rows: TransferRow[] = await this.dataSource.query(
      `SELECT ${COLUMNS} FROM transfer WHERE reference_id = $1 AND account_number = $2 AND owner_personal_number = $3 AND tpp_id = $4`,
      [referenceId, scope.accountNumber, scope.owner, scope.tppId],
    );
    return rows[0] ? toTransfer(rows[0]) : null;
  }

  /** Every transfer ordered from an account, any TPP, any status, newest first (AIS, contract §10). */
  async listByAccount(accountNumber: string): Promise<TransferEntity[]> {
    const rows: TransferRow[] = await this.dataSource.query(
      `SELECT ${COLUMNS} FROM transfer WHERE account_number = $1 ORDER BY created_at DESC, reference_id`,
      [accountNumber],
    );
    return rows.map(toTransfer);
  }

  async findOnAccount(referenceId: string, accountNumber: string): Promise<TransferEntity | null> {
    const rows: TransferRow[] = await this.dataSource.query(`SELECT ${COLUMNS} FROM transfer WHERE reference_id = $1 AND account_number = $2`, [
      referenceId,
      accountNumber,
    ]);
    return rows[0] ? toTransfer(rows[0]) : null;
  }

  /** The caller's transfers among these ids (owner and TPP), for signing. */
  async findSignable(referenceIds: string[], owner: string, tppId: string): Promise<TransferEntity[]> {
    const rows: TransferRow[] = await this.dataSource.query(
      `SELECT ${COLUMNS} FROM transfer WHERE reference_id = ANY($1::uuid[]) AND owner_personal_number = $2 AND tpp_id = $3 AND recurring_transfer_id IS NULL`,
      [referenceIds, owner, tppId],
    );
    return rows.map(toTransfer);
  }

  /**
   * Moves a transfer to `to` if its status allows (the lifecycle table) — one conditional statement,
   * so a deletion and an execution of the same transfer never both win. False when it did not move.
   */
  async move(referenceId: string, to: TransferStatus, set: { signedAt?: Date }, manager: EntityManager = this.dataSource.manager): Promise<boolean> {
    const rows = returnedRows(
      await manager.query(
        `UPDATE transfer SET status = $2, signed_at = COALESCE($4, signed_at)
          WHERE reference_id = $1 AND status = ANY($3::text[]) RETURNING reference_id`,
        [referenceId, to, TRANSFER_LIFECYCLE.before(to), set.signedAt ?? null],
      ),
    );
    return rows.length === 1;
  }

  /** Signs every listed transfer still awaiting a signature. */
  async markSigned(referenceIds: string[], signedAt: Date, manager: EntityManager): Promise<void> {
    await manager.query(
      `UPDATE transfer SET status = 'SIGNED', signed_at = $2 WHERE reference_id = ANY($1::uuid[]) AND status = 'AWAITING_SIGNATURE'`,
      [referenceIds, signedAt],
    );
  }

  /** Signed transfers due on or before `today`, oldest first: the execution job's work list. */
  async listDue(today: string, limit: number): Promise<string[]> {
    const rows: Array<{ reference_id: string }> = await this.dataSource.query(
      `SELECT reference_id FROM transfer WHERE status = 'SIGNED' AND transfer_date <= $1::date ORDER BY transfer_date, created_at LIMIT $2`,
      [today, limit],
    );
    return rows.map((r) => r.reference_id);
  }

  /** Locks a due transfer for booking; null when another booking holds it or it is no longer SIGNED. */
  async lockForExecution(referenceId: string, manager: EntityManager): Promise<TransferEntity | null> {
    const rows: TransferRow[] = await manager.query(
      `SELECT ${COLUMNS} FROM transfer WHERE reference_id = $1 AND status = 'SIGNED' FOR UPDATE SKIP LOCKED`,
      [referenceId],
    );
    return rows[0] ? toTransfer(rows[0]) : null;
  }

  async markExecuted(referenceId: string, executedAt: Date, manager: EntityManager): Promise<void> {
    await manager.query(`UPDATE transfer SET status = 'EXECUTED', executed_at = $2 WHERE reference_id = $1 AND status = 'SIGNED'`, [
      referenceId,
      executedAt,
    ]);
  }

  async markRejected(referenceId: string, reason: string, manager: EntityManager): Promise<void> {
    await manager.query(`UPDATE transfer SET status = 'REJECTED', rejection_reason = $2 WHERE reference_id = $1 AND status = 'SIGNED'`, [
      referenceId,
      reason,
    ]);
  }
}
