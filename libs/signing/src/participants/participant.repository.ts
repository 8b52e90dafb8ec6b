import { Injectable } from '@nestjs/common';
import { returnedRows, SandboxDb } from '@app/common';
import type { EidOrderReference } from '@app/eid';
import type { StartKind } from '../session/signing-rules';
import { ParticipantEntity } from './participant.entity';

@Injectable()
export class ParticipantRepository {
  private readonly rows = this.db.rows(ParticipantEntity);

  constructor(private readonly db: SandboxDb) {}

  async insert(participants: ParticipantEntity[]): Promise<void> {
    await this.db.insert(ParticipantEntity, participants);
  }

  /** One indexed read per signing call: the partner's own participant, or null (another's is not leaked). */
  async findOwned(id: string, partnerId: string): Promise<ParticipantEntity | null> {
    const result: unknown = await this.db.query(`SELECT ${this.rows.select()} FROM signing_participant WHERE sandbox_id = $1 AND id = $2 AND partner_id = $3`, [id, partnerId]);
    return this.rows.first(result);
  }

  /** The current eid order of the partner's own participant, for the eid engine to read with it in one statement. */
  currentOrderOf(id: string, partnerId: string): EidOrderReference {
    return { idQuery: `SELECT current_order_id FROM signing_participant WHERE sandbox_id = $1 AND id = $2 AND partner_id = $3`, parameters: [id, partnerId] };
  }

  /** The participant whose latest start made this eid order (signing_participant_current_order_idx), or null. */
  async findByCurrentOrder(orderId: string): Promise<ParticipantEntity | null> {
    const result: unknown = await this.db.query(`SELECT ${this.rows.select()} FROM signing_participant WHERE sandbox_id = $1 AND current_order_id = $2`, [orderId]);
    return this.rows.first(result);
  }

  async listByProcess(kind: string, processId: string): Promise<ParticipantEntity[]> {
    const result: unknown = await this.db.query(
      `SELECT ${this.rows.select()} FROM signing_participant WHERE sandbox_id = $1 AND process_kind = $2 AND process_id = $3 ORDER BY created_at, id`,
      [kind, processId],
    );
    return this.rows.all(result);
  }

  async setCurrentOrder(id: string, orderId: string, kind: StartKind): Promise<void> {
    await this.db.query(`UPDATE signing_participant SET current_order_id = $3, current_order_kind = $4 WHERE sandbox_id = $1 AND id = $2`, [id, orderId, kind]);
  }

  /** Marks the participant signed once; false when it already was. */
  async markSigned(id: string, signedAt: Date): Promise<boolean> {
    const rows = returnedRows(
      await this.db.query(`UPDATE signing_participant SET signed_at = $3 WHERE sandbox_id = $1 AND id = $2 AND signed_at IS NULL RETURNING id`, [id, signedAt]),
    );
    return rows.length === 1;
  }
}
