import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import type { PersonalNumber } from '@app/common';
import { SandboxUserEntity } from './sandbox-user.entity';
import { SandboxUser } from './sandbox-user';

interface UpsertedRow {
  inserted: boolean;
}

@Injectable()
export class UserRepository {
  constructor(@InjectRepository(SandboxUserEntity) private readonly users: Repository<SandboxUserEntity>) {}

  /** Creates or replaces the user in one statement; tells whether it was created. */
  async upsert(user: SandboxUser, manager: EntityManager = this.users.manager): Promise<{ created: boolean }> {
    const rows: UpsertedRow[] = await manager.query(
      `INSERT INTO sandbox_user (personal_number, name, kyc_completed, eid_behaviour, busy_elsewhere, credit_decision)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (personal_number) DO UPDATE
          SET name = EXCLUDED.name, kyc_completed = EXCLUDED.kyc_completed, eid_behaviour = EXCLUDED.eid_behaviour,
              busy_elsewhere = EXCLUDED.busy_elsewhere, credit_decision = EXCLUDED.credit_decision, updated_at = now()
       RETURNING (xmax = 0) AS inserted`,
      [user.personalNumber, user.name, user.kycCompleted, user.eidBehaviour, user.busyElsewhere, user.creditDecision],
    );
    return { created: rows[0].inserted };
  }

  /** On the hot paths (token issue, eid starts): one indexed read, mapped by hand. */
  async find(personalNumber: PersonalNumber, manager: EntityManager = this.users.manager): Promise<SandboxUser | null> {
    const rows: UserRow[] = await manager.query(
      `SELECT personal_number, name, kyc_completed, eid_behaviour, busy_elsewhere, credit_decision
         FROM sandbox_user WHERE personal_number = $1`,
      [personalNumber],
    );
    return rows[0] ? toUser(rows[0]) : null;
  }

  /** A page in personal-number order after `after` (keyset on the primary key: one index range scan). */
  async listAfter(after: string | undefined, limit: number, manager: EntityManager = this.users.manager): Promise<SandboxUser[]> {
    const rows: UserRow[] = await manager.query(
      `SELECT personal_number, name, kyc_completed, eid_behaviour, busy_elsewhere, credit_decision
         FROM sandbox_user WHERE personal_number > $1 ORDER BY personal_number LIMIT $2`,
      [after ?? '', limit],
    );
    return rows.map(toUser);
  }
}

interface UserRow {
  personal_number: string;
  name: string;
  kyc_completed: boolean;
  eid_behaviour: SandboxUser['eidBehaviour'];
  busy_elsewhere: boolean;
  credit_decision: SandboxUser['creditDecision'];
}

function toUser(row: UserRow): SandboxUser {
  return {
    personalNumber: row.personal_number as PersonalNumber,
    name: row.name,
    kycCompleted: row.kyc_completed,
    eidBehaviour: row.eid_behaviour,
    busyElsewhere: row.busy_elsewhere,
    creditDecision: row.credit_decision,
  };
}
