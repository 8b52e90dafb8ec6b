import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { entityRows, returnedRows } from '@app/common';
import type { StartKind } from '../session/signing-rules';
import { ParticipantEntity } from './participant.entity';

@Injectable()
export class ParticipantRepository {
  private readonly rows = entityRows(this.dataSource, ParticipantEntity);

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async insert(participants: ParticipantEntity[], manager: EntityManager = this.dataSource.manager): Promise<void> {
    await manager.insert(ParticipantEntity, participants);
  }

  /** One indexed read per signing call: the partner's own participant, or null (another's is not leaked). */
  async findOwned(id: string, partnerId: string): Promise<ParticipantEntity | null> {
    const result: unknown = await this.dataSource.query(`SELECT ${this.rows.select()} FROM signing_participant WHERE id = $1 AND partner_id = $2`, [id, partnerId]);
    return this.rows.first(result);
  }

  async listByProcess(kind: string, processId: string, manager: EntityManager = this.dataSource.manager): Promise<ParticipantEntity[]> {
    const result: unknown = await manager.query(
      `SELECT ${this.rows.select()} FROM signing_participant WHERE process_kind = $1 AND process_id = $2 ORDER BY created_at, id`,
      [kind, processId],
    );
    return this.rows.all(result);
  }

  async setCurrentOrder(id: string, orderId: string, kind: StartKind, manager: EntityManager): Promise<void> {
    await manager.query(`UPDATE signing_participant SET current_order_id = $2, current_order_kind = $3 WHERE id = $1`, [id, orderId, kind]);
  }

  /** Marks the participant signed once; false when it already was. */
  async markSigned(id: string, signedAt: Date, manager: EntityManager): Promise<boolean> {
    const rows = returnedRows(
      await manager.query(`UPDATE signing_participant SET signed_at = $2 WHERE id = $1 AND signed_at IS NULL RETURNING id`, [id, signedAt]),
    );
    return rows.length === 1;
  }
}
