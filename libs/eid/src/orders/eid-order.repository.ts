import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import { type DueWork, returnedRows, SandboxDb } from '@app/common';
import type { EidOrderReference } from './eid-order';
import { EidOrderEntity } from './eid-order.entity';
import { ACTIVATION_LIMIT_S, OPEN_STATUSES, ORDER_LIFETIME_S } from './eid-order-status';

/**
 * For another lib's statement about a person's orders (contract §8: a user seeded again is as if
 * new): the ids of every order whose subject is `personalNumber` (an SQL expression) in the
 * statement's sandbox (`$1`), for `… IN (eidOrdersOf('$2'))`.
 */
export const eidOrdersOf = (personalNumber: string): string =>
  `SELECT o.id FROM eid_order o WHERE o.sandbox_id = $1 AND o.personal_number = ${personalNumber}`;

@Injectable()
export class EidOrderRepository {
  private readonly rows = this.db.rows(EidOrderEntity);

  constructor(private readonly db: SandboxDb) {}

  /** On the hot path of every eid start: one prepared statement. */
  async insert(order: EidOrderEntity): Promise<void> {
    await this.db.query(this.rows.insert(), this.rows.values(order));
  }

  /** The hot path of every status and collect poll: one indexed read, no query builder. */
  async findById(id: string): Promise<EidOrderEntity | null> {
    const result: unknown = await this.db.query(`SELECT ${this.rows.select()} FROM eid_order WHERE sandbox_id = $1 AND id = $2`, [id]);
    return this.rows.first(result);
  }

  /** The order another lib's row refers to (see EidOrderReference), in one statement with that lookup. */
  async findReferenced(reference: EidOrderReference): Promise<EidOrderEntity | null> {
    const result: unknown = await this.db.query(`SELECT ${this.rows.select()} FROM eid_order WHERE sandbox_id = $1 AND id = (${reference.idQuery})`, reference.parameters);
    return this.rows.first(result);
  }

  /** By the token's SHA-256 (hashUuidSecret): the table holds no clear token. */
  findByAutostartTokenHash(autostartTokenHash: string): Promise<EidOrderEntity | null> {
    return this.db.findOneBy(EidOrderEntity, { autostartTokenHash });
  }

  findByQrStartToken(qrStartToken: string): Promise<EidOrderEntity | null> {
    return this.db.findOneBy(EidOrderEntity, { qrStartToken });
  }

  /** Open phone orders of a person, oldest first (the simulator's listing, contract §4). */
  listOpenPhoneOrders(personalNumber: string): Promise<EidOrderEntity[]> {
    return this.db.find(EidOrderEntity, {
      where: { personalNumber, channel: 'phone', status: In([...OPEN_STATUSES]) },
      order: { startedAt: 'ASC' },
    });
  }

  /** The newest open orders of the sandbox (the console's listing, contract §14): eid_order_open_idx. */
  listOpen(limit: number): Promise<EidOrderEntity[]> {
    return this.db.find(EidOrderEntity, { where: { status: In([...OPEN_STATUSES]) }, order: { startedAt: 'DESC' }, take: limit });
  }

  /** Records the first final answer of a poll; the time recorded (another poll's, if it came first). */
  async recordFinalReported(id: string, now: Date): Promise<Date | null> {
    const result: unknown = await this.db.query(
      `UPDATE eid_order SET final_reported_at = COALESCE(final_reported_at, $3) WHERE sandbox_id = $1 AND id = $2 RETURNING final_reported_at`,
      [id, now],
    );
    return returnedRows<{ final_reported_at: Date }>(result)[0]?.final_reported_at ?? null;
  }

  /**
   * Writes the order's changes if nobody changed it since it was read (version check); false when
   * someone did, and the caller reads again.
   */
  async saveIfUnchanged(order: EidOrderEntity): Promise<boolean> {
    const result: unknown = await this.db.query(
      `UPDATE eid_order
          SET personal_number = $4, status = $5, hint_code = $6, app_opened_at = $7, call_confirmed_at = $8,
              finished_at = $9, version = version + 1
        WHERE sandbox_id = $1 AND id = $2 AND version = $3
        RETURNING version`,
      [order.id, order.version, order.personalNumber, order.status, order.hintCode, order.appOpenedAt, order.callConfirmedAt, order.finishedAt],
    );
    const rows = returnedRows<{ version: number }>(result);
    if (rows.length === 0) return false;
    order.version = rows[0].version;
    return true;
  }

  /**
   * The sandboxes with an open order that expireStale would close now, each judged by its own
   * clock (the scheduled pass over every sandbox, contract §13 Time and jobs).
   */
  dueWork(): DueWork {
    const open = OPEN_STATUSES.map((s) => `'${s}'`).join(', ');
    return {
      sql: `SELECT o.sandbox_id FROM eid_order o JOIN sandbox_now n ON n.sandbox_id = o.sandbox_id
             WHERE o.status IN (${open})
               AND (o.started_at <= n.now - make_interval(secs => $2) OR (o.app_opened_at IS NULL AND o.started_at <= n.now - make_interval(secs => $1)))`,
      parameters: [ACTIVATION_LIMIT_S, ORDER_LIFETIME_S],
    };
  }

  /**
   * The time rules of contract §4 for every open order at once (the expiry job), in their order:
   * never opened within 30 s → START_FAILED, then older than 3 minutes → EXPIRED_TRANSACTION.
   * Returns how many orders each rule closed.
   */
  async expireStale(now: Date): Promise<{ startFailed: number; expired: number }> {
    const open = OPEN_STATUSES.map((s) => `'${s}'`).join(', ');
    const startFailed = returnedRows(
      await this.db.query(
        `UPDATE eid_order SET status = 'FAILED', hint_code = 'START_FAILED', finished_at = $2, version = version + 1
          WHERE sandbox_id = $1 AND status IN (${open}) AND app_opened_at IS NULL AND started_at <= $2::timestamptz - make_interval(secs => $3)
          RETURNING id`,
        [now, ACTIVATION_LIMIT_S],
      ),
    ).length;
    const expired = returnedRows(
      await this.db.query(
        `UPDATE eid_order SET status = 'FAILED', hint_code = 'EXPIRED_TRANSACTION', finished_at = $2, version = version + 1
          WHERE sandbox_id = $1 AND status IN (${open}) AND started_at <= $2::timestamptz - make_interval(secs => $3)
          RETURNING id`,
        [now, ORDER_LIFETIME_S],
      ),
    ).length;
    return { startFailed, expired };
  }

  /** Cancels every open order of the person (FAILED CANCELLED) in one statement; how many. */
  async cancelOpenOf(personalNumber: string, now: Date): Promise<number> {
    const open = OPEN_STATUSES.map((s) => `'${s}'`).join(', ');
    return returnedRows(
      await this.db.query(
        `UPDATE eid_order SET status = 'FAILED', hint_code = 'CANCELLED', finished_at = $3, version = version + 1
          WHERE sandbox_id = $1 AND personal_number = $2 AND status IN (${open})
          RETURNING id`,
        [personalNumber, now],
      ),
    ).length;
  }
}
