import { DomainError, NotFound } from '@app/common';

/** Contract §11: the 409 of bank §7.2, with its exact message. */
export class SigningInProgress extends DomainError {
  constructor() {
    super('RFA4_SIGNING_IN_PROGRESS', 'An identification or signing for this personal number is already started. Please try again.');
  }
}

export class UnknownParticipant extends NotFound {
  constructor(participantId: string) {
    super(`No participant ${participantId} of this partner.`);
  }
}

export class NoSigningStarted extends DomainError {
  constructor(participantId: string) {
    super('INVALID_STATE', `No signing has been started for participant ${participantId}; call start or start/phone first.`);
  }
}

export class AlreadySigned extends DomainError {
  constructor(participantId: string) {
    super('INVALID_STATE', `Participant ${participantId} has already signed.`);
  }
}
