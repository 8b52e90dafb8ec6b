import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { returnedRows } from '@app/common';
import type { StartKind } from '../session/signing-rules';
import { ParticipantEntity } from './participant.entity';

const COLUMNS = 'id, partner_id, process_kind, process_id, personal_number, current_order_id, current_order_kind, signed_at, created_at';

interface ParticipantRow {
  id: string;
  partner_id: string;
  process_kind: string;
  process_id: string;
  personal_number: string;
  current_order_id: string | null;
  current_order_kind: StartKind | null;
  signed_at: Date | null;
  created_at: Date;
}

const toEntity = (row: ParticipantRow): ParticipantEntity =>
  Object.assign(new ParticipantEntity(), {
    id: row.id,
    partnerId: row.partner_id,
    processKind: row.process_kind,
    processId: row.process_id,
    personalNumber: row.personal_number,
    currentOrderId: row.current_order_id,
    currentOrderKind: row.current_order_kind,
    signedAt: row.signed_at,
    createdAt: row.created_at,
  });

@Injectable()
export class ParticipantRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async insert(participants: ParticipantEntity[], manager: EntityManager = this.dataSource.manager): Promise<void> {
    await manager.insert(ParticipantEntity, participants);
  }

  /** One indexed read per signing call: the partner's own participant, or null (another's is not leaked). */
  async findOwned(id: string, partnerId: string): Promise<ParticipantEntity | null> {
    const rows: ParticipantRow[] = await this.dataSource.query(`SELECT ${COLUMNS} FROM signing_participant WHERE id = $1 AND partner_id = $2`, [id, partnerId]);
    return rows[0] ? toEntity(rows[0]) : null;
  }

  async listByProcess(kind: string, processId: string, manager: EntityManager = this.dataSource.manager): Promise<ParticipantEntity[]> {
    const rows: ParticipantRow[] = await manager.query(
      `SELECT ${COLUMNS} FROM signing_participant WHERE process_kind = $1 AND process_id = $2 ORDER BY created_at, id`,
      [kind, processId],
    );
    return rows.map(toEntity);
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
