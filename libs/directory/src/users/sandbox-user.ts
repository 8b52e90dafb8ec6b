import type { PersonalNumber } from '@app/common';
import type { EidBehaviour } from '@app/eid';
import type { CreditDecision } from './sandbox-user.entity';

/** What an admin (or a fixture) says about a user; PUT semantics: omitted optionals get defaults. */
export interface UserSettings {
  name: string;
  kycCompleted: boolean;
  eidBehaviour?: EidBehaviour;
  busyElsewhere?: boolean;
  creditDecision?: CreditDecision;
}

export interface SandboxUser {
  personalNumber: PersonalNumber;
  name: string;
  kycCompleted: boolean;
  eidBehaviour: EidBehaviour;
  busyElsewhere: boolean;
  creditDecision: CreditDecision | null;
}
