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

  async find(personalNumber: PersonalNumber, manager: EntityManager = this.users.manager): Promise<SandboxUser | null> {
    const entity = await manager.findOneBy(SandboxUserEntity, { personalNumber });
    return entity ? toUser(entity) : null;
  }
}

function toUser(entity: SandboxUserEntity): SandboxUser {
  return {
    personalNumber: entity.personalNumber as PersonalNumber,
    name: entity.name,
    kycCompleted: entity.kycCompleted,
    eidBehaviour: entity.eidBehaviour,
    busyElsewhere: entity.busyElsewhere,
    creditDecision: entity.creditDecision,
  };
}
