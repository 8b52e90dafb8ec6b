/** What a process sees of its participants (bank §2.5, §2.6 signing_process.participants[]). */
export interface Participant {
  id: string;
  personalNumber: string;
  signedAt: Date | null;
}

export interface SigningProcess {
  /** e.g. `pre_approval`, `loan_application`; completions are told to the listener of this kind. */
  kind: string;
  id: string;
  partnerId: string;
}

/** Told to the owning process, inside the transaction that marks the participant signed. */
export interface ParticipantSigned {
  participantId: string;
  process: SigningProcess;
  personalNumber: string;
  signedAt: Date;
}
