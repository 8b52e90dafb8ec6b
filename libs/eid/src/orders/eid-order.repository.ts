import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, In, Repository } from 'typeorm';
import { entityRows, returnedRows } from '@app/common';
import { EidOrderEntity } from './eid-order.entity';
import { ACTIVATION_LIMIT_S, OPEN_STATUSES, ORDER_LIFETIME_S } from './eid-order-status';

@Injectable()
export class EidOrderRepository {
  private readonly rows = entityRows(this.orders.manager.dataSource, EidOrderEntity);

  constructor(@InjectRepository(EidOrderEntity) private readonly orders: Repository<EidOrderEntity>) {}

  async insert(order: EidOrderEntity, manager: EntityManager = this.orders.manager): Promise<void> {
    await manager.insert(EidOrderEntity, order);
  }

  /** The hot path of every status and collect poll: one indexed read, no query builder. */
  async findById(id: string, manager: EntityManager = this.orders.manager): Promise<EidOrderEntity | null> {
    const result: unknown = await manager.query(`SELECT ${this.rows.select()} FROM eid_order WHERE id = $1`, [id]);
    return this.rows.first(result);
  }

  /** By the token's SHA-256 (hashUuidSecret): the table holds no clear token. */
  findByAutostartTokenHash(autostartTokenHash: string): Promise<EidOrderEntity | null> {
    return this.orders.findOneBy({ autostartTokenHash });
  }

  findByQrStartToken(qrStartToken: string): Promise<EidOrderEntity | null> {
    return this.orders.findOneBy({ qrStartToken });
  }

  /** Open phone orders of a person, oldest first (the simulator's listing, contract §4). */
  listOpenPhoneOrders(personalNumber: string): Promise<EidOrderEntity[]> {
    return this.orders.find({
      where: { personalNumber, channel: 'phone', status: In([...OPEN_STATUSES]) },
      order: { startedAt: 'ASC' },
    });
  }

  /**
   * Writes the order's changes if nobody changed it since it was read (version check); false when
   * someone did, and the caller reads again.
   */
  async saveIfUnchanged(order: EidOrderEntity, manager: EntityManager = this.orders.manager): Promise<boolean> {
    const result: unknown = await manager.query(
      `UPDATE eid_order
          SET personal_number = $3, status = $4, hint_code = $5, app_opened_at = $6, call_confirmed_at = $7,
              finished_at = $8, version = version + 1
        WHERE id = $1 AND version = $2
        RETURNING version`,
      [order.id, order.version, order.personalNumber, order.status, order.hintCode, order.appOpenedAt, order.callConfirmedAt, order.finishedAt],
    );
    const rows = returnedRows<{ version: number }>(result);
    if (rows.length === 0) return false;
    order.version = rows[0].version;
    return true;
  }

  /**
   * The time rules of contract §4 for every open order at once (the expiry job), in their order:
   * never opened within 30 s → START_FAILED, then older than 3 minutes → EXPIRED_TRANSACTION.
   * Returns how many orders each rule closed.
   */
  async expireStale(now: Date): Promise<{ startFailed: number; expired: number }> {
    const open = OPEN_STATUSES.map((s) => `'${s}'`).join(', ');
    const startFailed = returnedRows(
      await this.orders.manager.query(
        `UPDATE eid_order SET status = 'FAILED', hint_code = 'START_FAILED', finished_at = $1, version = version + 1
          WHERE status IN (${open}) AND app_opened_at IS NULL AND started_at <= $1::timestamptz - make_interval(secs => $2)
          RETURNING id`,
        [now, ACTIVATION_LIMIT_S],
      ),
    ).length;
    const expired = returnedRows(
      await this.orders.manager.query(
        `UPDATE eid_order SET status = 'FAILED', hint_code = 'EXPIRED_TRANSACTION', finished_at = $1, version = version + 1
          WHERE status IN (${open}) AND started_at <= $1::timestamptz - make_interval(secs => $2)
          RETURNING id`,
        [now, ORDER_LIFETIME_S],
      ),
    ).length;
    return { startFailed, expired };
  }
}
