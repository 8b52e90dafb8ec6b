import { Injectable } from '@nestjs/common';
import type { PersonalNumber } from '@app/common';
import { DEFAULT_EID_BEHAVIOUR } from '@app/eid';
import { UnknownUser } from '../directory.errors';
import { SandboxUser, UserSettings } from './sandbox-user';
import { UserRepository } from './user.repository';

/** The sandbox users (PSUs) of contract §4 and §8. */
@Injectable()
export class UserService {
  constructor(private readonly users: UserRepository) {}

  /** PUT semantics: the whole user is replaced, omitted settings take their defaults. */
  async put(personalNumber: PersonalNumber, settings: UserSettings): Promise<{ user: SandboxUser; created: boolean }> {
    const user: SandboxUser = {
      personalNumber,
      name: settings.name,
      kycCompleted: settings.kycCompleted,
      eidBehaviour: settings.eidBehaviour ?? DEFAULT_EID_BEHAVIOUR,
      busyElsewhere: settings.busyElsewhere ?? false,
      creditDecision: settings.creditDecision ?? null,
    };
    const { created } = await this.users.upsert(user);
    return { user, created };
  }

  /** Which of these personal numbers are users already. */
  existing(personalNumbers: readonly PersonalNumber[]): Promise<Set<PersonalNumber>> {
    return this.users.existing(personalNumbers);
  }

  find(personalNumber: PersonalNumber): Promise<SandboxUser | null> {
    return this.users.find(personalNumber);
  }

  /** Up to `limit` users in personal-number order, starting after `after` (a page of a listing). */
  list(after: string | undefined, limit: number): Promise<SandboxUser[]> {
    return this.users.listAfter(after, limit);
  }

  /** The user, or 404 NOT_FOUND. */
  async require(personalNumber: PersonalNumber): Promise<SandboxUser> {
    const user = await this.users.find(personalNumber);
    if (!user) throw new UnknownUser(personalNumber);
    return user;
  }
}
