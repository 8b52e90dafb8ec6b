import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { entityRows, returnedRows } from '@app/common';
import { TransferEntity } from './transfer.entity';
import { TRANSFER_LIFECYCLE, type TransferStatus } from './transfer-status';

/** Where a PIS caller may see a transfer: its own TPP's, for its own user, on that account (contract §2). */
export interface TransferScope {
  accountNumber: string;
  owner: string;
  tppId: string;
}

@Injectable()
export class TransferRepository {
  private readonly rows = entityRows(this.dataSource, TransferEntity);

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
    const result: unknown = await this.dataSource.query(
      `SELECT ${this.rows.select()} FROM transfer WHERE reference_id = $1 AND account_number = $2 AND owner_personal_number = $3 AND tpp_id = $4`,
      [referenceId, scope.accountNumber, scope.owner, scope.tppId],
    );
    return this.rows.first(result);
  }

  /** Every transfer ordered from an account, any TPP, any status, newest first (AIS, contract §10). */
  async listByAccount(accountNumber: string): Promise<TransferEntity[]> {
    const result: unknown = await this.dataSource.query(
      `SELECT ${this.rows.select()} FROM transfer WHERE account_number = $1 ORDER BY created_at DESC, reference_id`,
      [accountNumber],
    );
    return this.rows.all(result);
  }

  async findOnAccount(referenceId: string, accountNumber: string): Promise<TransferEntity | null> {
    const result: unknown = await this.dataSource.query(`SELECT ${this.rows.select()} FROM transfer WHERE reference_id = $1 AND account_number = $2`, [
      referenceId,
      accountNumber,
    ]);
    return this.rows.first(result);
  }

  /** The caller's transfers among these ids (owner and TPP), for signing. */
  async findSignable(referenceIds: string[], owner: string, tppId: string): Promise<TransferEntity[]> {
    const result: unknown = await this.dataSource.query(
      `SELECT ${this.rows.select()} FROM transfer WHERE reference_id = ANY($1::uuid[]) AND owner_personal_number = $2 AND tpp_id = $3 AND recurring_transfer_id IS NULL`,
      [referenceIds, owner, tppId],
    );
    return this.rows.all(result);
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
    const result: unknown = await manager.query(
      `SELECT ${this.rows.select()} FROM transfer WHERE reference_id = $1 AND status = 'SIGNED' FOR UPDATE SKIP LOCKED`,
      [referenceId],
    );
    return this.rows.first(result);
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
