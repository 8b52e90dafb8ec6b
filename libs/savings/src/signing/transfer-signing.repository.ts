import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { returnedRows } from '@app/common';
import { TransferSigningEntity } from './transfer-signing.entity';

@Injectable()
export class TransferSigningRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async insert(signing: TransferSigningEntity): Promise<void> {
    await this.dataSource.manager.insert(TransferSigningEntity, signing);
  }

  async findOwned(signingId: string, personalNumber: string, tppId: string): Promise<TransferSigningEntity | null> {
    const rows: Array<{ signing_id: string; eid_order_id: string; reference_ids: string[]; applied_at: Date | null }> = await this.dataSource.query(
      `SELECT signing_id, eid_order_id, reference_ids, applied_at FROM transfer_signing WHERE signing_id = $1 AND personal_number = $2 AND tpp_id = $3`,
      [signingId, personalNumber, tppId],
    );
    const row = rows[0];
    return row
      ? Object.assign(new TransferSigningEntity(), { signingId: row.signing_id, eidOrderId: row.eid_order_id, referenceIds: row.reference_ids, appliedAt: row.applied_at })
      : null;
  }

  /** Claims the one application of a completed signature; false when it was applied already. */
  async claimApplication(signingId: string, now: Date, manager: EntityManager): Promise<boolean> {
    const rows = returnedRows(
      await manager.query(`UPDATE transfer_signing SET applied_at = $2 WHERE signing_id = $1 AND applied_at IS NULL RETURNING signing_id`, [
        signingId,
        now,
      ]),
    );
    return rows.length === 1;
  }
}
