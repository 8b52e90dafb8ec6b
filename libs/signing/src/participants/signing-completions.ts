import { Injectable } from '@nestjs/common';
import type { ParticipantSigned } from './participant';

/**
 * Told, inside the transaction that marks a participant signed, so the owning process changes with
 * it or not at all: its repository calls join that transaction through the sandbox context (SandboxDb).
 */
export type ParticipantSignedListener = (event: ParticipantSigned) => Promise<void>;

/** The one seam from signing to the processes that own participants (pre-approvals, loan applications). */
@Injectable()
export class SigningCompletions {
  private readonly listeners = new Map<string, ParticipantSignedListener>();

  /** Each kind of process registers its listener once, in onModuleInit. */
  onParticipantSigned(processKind: string, listener: ParticipantSignedListener): void {
    if (this.listeners.has(processKind)) throw new Error(`A listener for ${processKind} signings is already registered`);
    this.listeners.set(processKind, listener);
  }

  async tell(event: ParticipantSigned): Promise<void> {
    await this.listeners.get(event.process.kind)?.(event);
  }
}
