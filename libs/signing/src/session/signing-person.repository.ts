import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import type { StartKind } from './signing-rules';

/** The contract §11 state of one personal number. */
export interface SigningPerson {
  personalNumber: string;
  orderId: string | null;
  orderKind: StartKind | null;
  orderIp: string | null;
  retryArmed: boolean;
  blockedUntil: Date | null;
}

/**
 * signing_person rows, read and written only inside a transaction that holds the row lock, so the
 * rules of contract §11 are decided one call at a time per person, across instances.
 */
@Injectable()
export class SigningPersonRepository {
  async lock(personalNumber: string, manager: EntityManager): Promise<SigningPerson> {
    await manager.query(`INSERT INTO signing_person (personal_number) VALUES ($1) ON CONFLICT (personal_number) DO NOTHING`, [personalNumber]);
    const rows: Array<{ order_id: string | null; order_kind: StartKind | null; order_ip: string | null; retry_armed: boolean; blocked_until: Date | null }> =
      await manager.query(
        `SELECT order_id, order_kind, order_ip, retry_armed, blocked_until FROM signing_person WHERE personal_number = $1 FOR UPDATE`,
        [personalNumber],
      );
    const row = rows[0];
    return {
      personalNumber,
      orderId: row.order_id,
      orderKind: row.order_kind,
      orderIp: row.order_ip,
      retryArmed: row.retry_armed,
      blockedUntil: row.blocked_until,
    };
  }

  async save(person: SigningPerson, manager: EntityManager): Promise<void> {
    await manager.query(
      `UPDATE signing_person SET order_id = $2, order_kind = $3, order_ip = $4, retry_armed = $5, blocked_until = $6 WHERE personal_number = $1`,
      [person.personalNumber, person.orderId, person.orderKind, person.orderIp, person.retryArmed, person.blockedUntil],
    );
  }
}
