import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { entityRows, type PersonalNumber } from '@app/common';
import { SandboxUserEntity } from './sandbox-user.entity';
import { SandboxUser } from './sandbox-user';

@Injectable()
export class UserRepository {
  /** A SandboxUser: the entity but for its bookkeeping times. */
  private readonly rows = entityRows(this.users.manager.dataSource, SandboxUserEntity, ['createdAt', 'updatedAt']);

  constructor(@InjectRepository(SandboxUserEntity) private readonly users: Repository<SandboxUserEntity>) {}

  /** Creates or replaces the user in one statement; tells whether it was created. */
  async upsert(user: SandboxUser, manager: EntityManager = this.users.manager): Promise<{ created: boolean }> {
    const rows: Array<{ inserted: boolean }> = await manager.query(
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

  /** On the hot paths (token issue, eid starts): one indexed read. */
  async find(personalNumber: PersonalNumber, manager: EntityManager = this.users.manager): Promise<SandboxUser | null> {
    const result: unknown = await manager.query(`SELECT ${this.rows.select()} FROM sandbox_user WHERE personal_number = $1`, [personalNumber]);
    return this.rows.first(result) as SandboxUser | null;
  }

  /** A page in personal-number order after `after` (keyset on the primary key: one index range scan). */
  async listAfter(after: string | undefined, limit: number, manager: EntityManager = this.users.manager): Promise<SandboxUser[]> {
    const result: unknown = await manager.query(`SELECT ${this.rows.select()} FROM sandbox_user WHERE personal_number > $1 ORDER BY personal_number LIMIT $2`, [
      after ?? '',
      limit,
    ]);
    return this.rows.all(result) as SandboxUser[];
  }
}
