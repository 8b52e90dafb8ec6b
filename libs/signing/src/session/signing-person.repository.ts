import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { entityRows } from '@app/common';
import { SigningPersonEntity } from './signing-person.entity';

/** The contract §11 state of one personal number. */
export type SigningPerson = SigningPersonEntity;

/**
 * signing_person rows, read and written only inside a transaction that holds the row lock, so the
 * rules of contract §11 are decided one call at a time per person, across instances.
 */
@Injectable()
export class SigningPersonRepository {
  private readonly rows = entityRows(this.dataSource, SigningPersonEntity);

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async lock(personalNumber: string, manager: EntityManager): Promise<SigningPerson> {
    await manager.query(`INSERT INTO signing_person (personal_number) VALUES ($1) ON CONFLICT (personal_number) DO NOTHING`, [personalNumber]);
    const result: unknown = await manager.query(`SELECT ${this.rows.select()} FROM signing_person WHERE personal_number = $1 FOR UPDATE`, [personalNumber]);
    // The insert above made sure the row exists.
    return this.rows.first(result) as SigningPerson;
  }

  async save(person: SigningPerson, manager: EntityManager): Promise<void> {
    await manager.query(
      `UPDATE signing_person SET order_id = $2, order_kind = $3, order_ip = $4, retry_armed = $5, blocked_until = $6 WHERE personal_number = $1`,
      [person.personalNumber, person.orderId, person.orderKind, person.orderIp, person.retryArmed, person.blockedUntil],
    );
  }
}
