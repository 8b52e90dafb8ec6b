import { Injectable } from '@nestjs/common';
import { type EidBehaviour, type EidUserCard, EidUserDirectory } from '@app/eid';
import type { PersonalNumber } from '@app/common';
import type { SandboxUser } from './sandbox-user';
import { UserRepository } from './user.repository';

const toCard = (user: SandboxUser): EidUserCard => ({
  personalNumber: user.personalNumber,
  name: user.name,
  behaviour: user.eidBehaviour,
});

/** The directory's answer to the identity service: who exists and how their app behaves. */
@Injectable()
export class EidUsersAdapter extends EidUserDirectory {
  constructor(private readonly users: UserRepository) {
    super();
  }

  async behaviourOf(personalNumber: string): Promise<EidBehaviour | null> {
    return (await this.describe(personalNumber))?.behaviour ?? null;
  }

  async describe(personalNumber: string): Promise<EidUserCard | null> {
    const user = await this.users.find(personalNumber as PersonalNumber);
    return user ? toCard(user) : null;
  }

  async list(limit: number): Promise<EidUserCard[]> {
    return (await this.users.listAfter(undefined, limit)).map(toCard);
  }
}
