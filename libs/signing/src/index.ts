export { SigningModule } from './signing.module';
export { ParticipantService } from './participants/participant.service';
export { SigningCompletions } from './participants/signing-completions';
export type { ParticipantSignedListener } from './participants/signing-completions';
export type { Participant, ParticipantSigned, SigningProcess } from './participants/participant';
