import { DomainError, InvalidState, NotFound } from '@app/common';

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

export class NoSigningStarted extends InvalidState {
  constructor(participantId: string) {
    super(`No signing has been started for participant ${participantId}; call start or start/phone first.`);
  }
}

/** The participant's process no longer takes signatures (e.g. an EXPIRED pre-approval): 409 (contract §2). */
export class SigningClosed extends InvalidState {
  constructor(participantId: string, why: string) {
    super(`Participant ${participantId} cannot sign: ${why}.`);
  }
}

export class AlreadySigned extends InvalidState {
  constructor(participantId: string) {
    super(`Participant ${participantId} has already signed.`);
  }
}
