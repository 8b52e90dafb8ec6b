export { SigningModule } from './signing.module';
export { ParticipantService } from './participants/participant.service';
export { SigningService } from './session/signing.service';
export { SigningCompletions } from './participants/signing-completions';
export type { ParticipantSignedListener } from './participants/signing-completions';
export { SigningAdmissions } from './participants/signing-admissions';
export type { SigningAdmission, SigningAdmissionCheck } from './participants/signing-admissions';
export type { Participant, ParticipantSigned, SigningProcess } from './participants/participant';
