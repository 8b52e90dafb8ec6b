import { Injectable } from '@nestjs/common';
import { returnedRows, SandboxDb } from '@app/common';
import { TransferSigningEntity } from './transfer-signing.entity';

@Injectable()
export class TransferSigningRepository {
  private readonly rows = this.db.rows(TransferSigningEntity);

  constructor(private readonly db: SandboxDb) {}

  async insert(signing: TransferSigningEntity): Promise<void> {
    await this.db.insert(TransferSigningEntity, signing);
  }

  /** Deletes the person's transfer signings, applied or not (they sign only that person's transfers). */
  async deleteOf(personalNumber: string): Promise<void> {
    await this.db.query(`DELETE FROM transfer_signing WHERE sandbox_id = $1 AND personal_number = $2`, [personalNumber]);
  }

  async findOwned(signingId: string, personalNumber: string, tppId: string): Promise<TransferSigningEntity | null> {
    const result: unknown = await this.db.query(
      `SELECT ${this.rows.select()} FROM transfer_signing WHERE sandbox_id = $1 AND signing_id = $2 AND personal_number = $3 AND tpp_id = $4`,
      [signingId, personalNumber, tppId],
    );
    return this.rows.first(result);
  }

  /** The signing of this eid order (its UNIQUE key), or null: a partner signing's order has none. */
  async findByEidOrder(eidOrderId: string): Promise<TransferSigningEntity | null> {
    const result: unknown = await this.db.query(`SELECT ${this.rows.select()} FROM transfer_signing WHERE sandbox_id = $1 AND eid_order_id = $2`, [eidOrderId]);
    return this.rows.first(result);
  }

  /** Claims the one application of a completed signature; false when it was applied already. */
  async claimApplication(signingId: string, now: Date): Promise<boolean> {
    const rows = returnedRows(
      await this.db.query(`UPDATE transfer_signing SET applied_at = $3 WHERE sandbox_id = $1 AND signing_id = $2 AND applied_at IS NULL RETURNING signing_id`, [
        signingId,
        now,
      ]),
    );
    return rows.length === 1;
  }
}
