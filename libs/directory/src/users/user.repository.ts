import { Injectable } from '@nestjs/common';
import { type PersonalNumber, SandboxDb } from '@app/common';
import { SandboxUserEntity } from './sandbox-user.entity';
import { SandboxUser } from './sandbox-user';

/**
 * For another lib's statement that must refuse a user without KYC in the same step, so that a
 * refusal spends nothing (bank §4.2 rule 1): holds when the user `personalNumber` (an SQL
 * expression) exists in the statement's sandbox (`$1`) and has answered KYC.
 */
export const kycAnswered = (personalNumber: string): string =>
  `EXISTS (SELECT 1 FROM sandbox_user u WHERE u.sandbox_id = $1 AND u.personal_number = ${personalNumber} AND u.kyc_completed)`;

@Injectable()
export class UserRepository {
  /** A SandboxUser: the entity but for its bookkeeping times. */
  private readonly rows = this.db.rows(SandboxUserEntity, ['createdAt', 'updatedAt']);

  constructor(private readonly db: SandboxDb) {}

  /** Creates or replaces the user in one statement; tells whether it was created. */
  async upsert(user: SandboxUser): Promise<{ created: boolean }> {
    const rows: Array<{ inserted: boolean }> = await this.db.query(
      `INSERT INTO sandbox_user (sandbox_id, personal_number, name, kyc_completed, eid_behaviour, busy_elsewhere, credit_decision)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (sandbox_id, personal_number) DO UPDATE
          SET name = EXCLUDED.name, kyc_completed = EXCLUDED.kyc_completed, eid_behaviour = EXCLUDED.eid_behaviour,
              busy_elsewhere = EXCLUDED.busy_elsewhere, credit_decision = EXCLUDED.credit_decision, updated_at = now()
       RETURNING (xmax = 0) AS inserted`,
      [user.personalNumber, user.name, user.kycCompleted, user.eidBehaviour, user.busyElsewhere, user.creditDecision],
    );
    return { created: rows[0].inserted };
  }

  /** On the hot paths (token issue, eid starts): one indexed read. */
  async find(personalNumber: PersonalNumber): Promise<SandboxUser | null> {
    const result: unknown = await this.db.query(`SELECT ${this.rows.select()} FROM sandbox_user WHERE sandbox_id = $1 AND personal_number = $2`, [personalNumber]);
    return this.rows.first(result) as SandboxUser | null;
  }

  /** Which of these personal numbers are users already: one indexed read. */
  async existing(personalNumbers: readonly PersonalNumber[]): Promise<Set<PersonalNumber>> {
    if (personalNumbers.length === 0) return new Set();
    const rows: Array<{ personal_number: PersonalNumber }> = await this.db.query(
      `SELECT personal_number FROM sandbox_user WHERE sandbox_id = $1 AND personal_number = ANY($2::bpchar[])`,
      [personalNumbers],
    );
    return new Set(rows.map((row) => row.personal_number));
  }

  /** A page in personal-number order after `after` (keyset on the primary key: one index range scan). */
  async listAfter(after: string | undefined, limit: number): Promise<SandboxUser[]> {
    const result: unknown = await this.db.query(`SELECT ${this.rows.select()} FROM sandbox_user WHERE sandbox_id = $1 AND personal_number > $2 ORDER BY personal_number LIMIT $3`, [
      after ?? '',
      limit,
    ]);
    return this.rows.all(result) as SandboxUser[];
  }
}
