import { Injectable } from '@nestjs/common';
import { type DueWork, returnedRows, SandboxDb } from '@app/common';
import { accountsOwnedBy } from '../accounts/account.repository';
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
  private readonly rows = this.db.rows(TransferEntity);
  private readonly intoOwnedAccount = this.rows.insertWhere(
    (value) =>
      `account a WHERE a.sandbox_id = $1 AND a.account_number = ${value('accountNumber')} AND a.owner_personal_number = ${value('ownerPersonalNumber')} AND a.currency = ${value('currency')}`,
  );

  constructor(private readonly db: SandboxDb) {}

  /** Deletes every transfer ordered from the owner's accounts, in any status (recurring occurrences included). */
  async deleteFromAccountsOf(owner: string): Promise<void> {
    await this.db.query(`DELETE FROM transfer WHERE sandbox_id = $1 AND account_number IN (${accountsOwnedBy('$2')})`, [owner]);
  }

  /** One prepared statement. */
  async insert(transfer: TransferEntity): Promise<void> {
    await this.db.query(this.rows.insert(), this.rows.values(transfer));
  }

  /**
   * The hot path of transfer creation, one prepared statement: inserts only if the transfer's
   * account is its owner's and in its currency; false (nothing inserted) when it is not.
   */
  async insertIntoOwnedAccount(transfer: TransferEntity): Promise<boolean> {
    return returnedRows(await this.db.query(this.intoOwnedAccount, this.rows.values(transfer))).length === 1;
  }

  /** An occurrence of a recurring transfer; the unique (recurring, date) key makes a second booking a no-op. */
  async insertOccurrence(transfer: TransferEntity): Promise<void> {
    await this.db.manager
      .createQueryBuilder()
      .insert()
      .into(TransferEntity)
      .values({ ...transfer, sandboxId: this.db.sandboxId })
      .orIgnore()
      .execute();
  }

  async findInScope(referenceId: string, scope: TransferScope): Promise<TransferEntity | null> {
    const result: unknown = await this.db.query(
      `SELECT ${this.rows.select()} FROM transfer WHERE sandbox_id = $1 AND reference_id = $2 AND account_number = $3 AND owner_personal_number = $4 AND tpp_id = $5`,
      [referenceId, scope.accountNumber, scope.owner, scope.tppId],
    );
    return this.rows.first(result);
  }

  /** Every transfer ordered from an account, any TPP, any status, newest first (AIS, contract §10). */
  async listByAccount(accountNumber: string): Promise<TransferEntity[]> {
    const result: unknown = await this.db.query(
      `SELECT ${this.rows.select()} FROM transfer WHERE sandbox_id = $1 AND account_number = $2 ORDER BY created_at DESC, reference_id`,
      [accountNumber],
    );
    return this.rows.all(result);
  }

  async findOnAccount(referenceId: string, accountNumber: string): Promise<TransferEntity | null> {
    const result: unknown = await this.db.query(`SELECT ${this.rows.select()} FROM transfer WHERE sandbox_id = $1 AND reference_id = $2 AND account_number = $3`, [
      referenceId,
      accountNumber,
    ]);
    return this.rows.first(result);
  }

  /** The caller's transfers among these ids (owner and TPP), for signing. */
  async findSignable(referenceIds: string[], owner: string, tppId: string): Promise<TransferEntity[]> {
    const result: unknown = await this.db.query(
      `SELECT ${this.rows.select()} FROM transfer WHERE sandbox_id = $1 AND reference_id = ANY($2::uuid[]) AND owner_personal_number = $3 AND tpp_id = $4 AND recurring_transfer_id IS NULL`,
      [referenceIds, owner, tppId],
    );
    return this.rows.all(result);
  }

  /**
   * Moves a transfer to `to` if its status allows (the lifecycle table) — one conditional statement,
   * so a deletion and an execution of the same transfer never both win. False when it did not move.
   */
  async move(referenceId: string, to: TransferStatus, set: { signedAt?: Date }): Promise<boolean> {
    const rows = returnedRows(
      await this.db.query(
        `UPDATE transfer SET status = $3, signed_at = COALESCE($5, signed_at)
          WHERE sandbox_id = $1 AND reference_id = $2 AND status = ANY($4::text[]) RETURNING reference_id`,
        [referenceId, to, TRANSFER_LIFECYCLE.before(to), set.signedAt ?? null],
      ),
    );
    return rows.length === 1;
  }

  /** Signs every listed transfer still awaiting a signature. */
  async markSigned(referenceIds: string[], signedAt: Date): Promise<void> {
    await this.db.query(
      `UPDATE transfer SET status = 'SIGNED', signed_at = $3 WHERE sandbox_id = $1 AND reference_id = ANY($2::uuid[]) AND status = 'AWAITING_SIGNATURE'`,
      [referenceIds, signedAt],
    );
  }

  /** Signed transfers due on or before `today`, oldest first: the execution job's work list. */
  /**
   * The sandboxes with a signed transfer dated on or before their own Stockholm today (listDue's
   * work, contract §10), for the execution job's scheduled pass over every sandbox (contract §13).
   */
  dueWork(): DueWork {
    return {
      sql: `SELECT t.sandbox_id FROM transfer t JOIN sandbox_now n ON n.sandbox_id = t.sandbox_id
             WHERE t.status = 'SIGNED' AND t.transfer_date <= (n.now AT TIME ZONE 'Europe/Stockholm')::date`,
    };
  }

  async listDue(today: string, limit: number): Promise<string[]> {
    const rows: Array<{ reference_id: string }> = await this.db.query(
      `SELECT reference_id FROM transfer WHERE sandbox_id = $1 AND status = 'SIGNED' AND transfer_date <= $2::date ORDER BY transfer_date, created_at LIMIT $3`,
      [today, limit],
    );
    return rows.map((r) => r.reference_id);
  }

  /** Locks a due transfer for booking; null when another booking holds it or it is no longer SIGNED. */
  async lockForExecution(referenceId: string): Promise<TransferEntity | null> {
    const result: unknown = await this.db.query(
      `SELECT ${this.rows.select()} FROM transfer WHERE sandbox_id = $1 AND reference_id = $2 AND status = 'SIGNED' FOR UPDATE SKIP LOCKED`,
      [referenceId],
    );
    return this.rows.first(result);
  }

  async markExecuted(referenceId: string, executedAt: Date): Promise<void> {
    await this.db.query(`UPDATE transfer SET status = 'EXECUTED', executed_at = $3 WHERE sandbox_id = $1 AND reference_id = $2 AND status = 'SIGNED'`, [
      referenceId,
      executedAt,
    ]);
  }

  async markRejected(referenceId: string, reason: string): Promise<void> {
    await this.db.query(`UPDATE transfer SET status = 'REJECTED', rejection_reason = $3 WHERE sandbox_id = $1 AND reference_id = $2 AND status = 'SIGNED'`, [
      referenceId,
      reason,
    ]);
  }
}
