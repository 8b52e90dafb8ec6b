import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { entityRows, returnedRows } from '@app/common';
import { TransferSigningEntity } from './transfer-signing.entity';

@Injectable()
export class TransferSigningRepository {
  private readonly rows = entityRows(this.dataSource, TransferSigningEntity);

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async insert(signing: TransferSigningEntity): Promise<void> {
    await this.dataSource.manager.insert(TransferSigningEntity, signing);
  }

  async findOwned(signingId: string, personalNumber: string, tppId: string): Promise<TransferSigningEntity | null> {
    const result: unknown = await this.dataSource.query(
      `SELECT ${this.rows.select()} FROM transfer_signing WHERE signing_id = $1 AND personal_number = $2 AND tpp_id = $3`,
      [signingId, personalNumber, tppId],
    );
    return this.rows.first(result);
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
