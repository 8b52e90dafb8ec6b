import { Injectable } from '@nestjs/common';
import { SandboxDb } from '@app/common';
import { SigningPersonEntity } from './signing-person.entity';

/** The contract §11 state of one personal number. */
export type SigningPerson = SigningPersonEntity;

/**
 * signing_person rows, read and written only inside a transaction that holds the row lock, so the
 * rules of contract §11 are decided one call at a time per person, across instances.
 */
@Injectable()
export class SigningPersonRepository {
  private readonly rows = this.db.rows(SigningPersonEntity);

  constructor(private readonly db: SandboxDb) {}

  async lock(personalNumber: string): Promise<SigningPerson> {
    await this.db.query(`INSERT INTO signing_person (sandbox_id, personal_number) VALUES ($1, $2) ON CONFLICT (sandbox_id, personal_number) DO NOTHING`, [personalNumber]);
    const result: unknown = await this.db.query(`SELECT ${this.rows.select()} FROM signing_person WHERE sandbox_id = $1 AND personal_number = $2 FOR UPDATE`, [personalNumber]);
    // The insert above made sure the row exists.
    return this.rows.first(result) as SigningPerson;
  }

  /** The person's state goes: the next call finds none (no open order, no block), as for a new person. */
  async delete(personalNumber: string): Promise<void> {
    await this.db.query(`DELETE FROM signing_person WHERE sandbox_id = $1 AND personal_number = $2`, [personalNumber]);
  }

  async save(person: SigningPerson): Promise<void> {
    await this.db.query(
      `UPDATE signing_person SET order_id = $3, order_kind = $4, order_ip = $5, retry_armed = $6, blocked_until = $7 WHERE sandbox_id = $1 AND personal_number = $2`,
      [person.personalNumber, person.orderId, person.orderKind, person.orderIp, person.retryArmed, person.blockedUntil],
    );
  }
}
