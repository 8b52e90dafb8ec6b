import { Injectable } from '@nestjs/common';
import { type EidBehaviour, EidUserDirectory } from '@app/eid';
import type { PersonalNumber } from '@app/common';
import { UserRepository } from './user.repository';

/** The directory's answer to the identity service: who exists and how their app behaves. */
@Injectable()
export class EidUsersAdapter extends EidUserDirectory {
  constructor(private readonly users: UserRepository) {
    super();
  }

  async behaviourOf(personalNumber: string): Promise<EidBehaviour | null> {
    return (await this.users.find(personalNumber as PersonalNumber))?.eidBehaviour ?? null;
  }
}
