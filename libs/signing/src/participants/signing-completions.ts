import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { ParticipantSigned } from './participant';

/**
 * Told, inside the transaction that marks a participant signed, so the owning process changes with
 * it or not at all. It must use `manager` for every query.
 */
export type ParticipantSignedListener = (event: ParticipantSigned, manager: EntityManager) => Promise<void>;

/** The one seam from signing to the processes that own participants (pre-approvals, loan applications). */
@Injectable()
export class SigningCompletions {
  private readonly listeners = new Map<string, ParticipantSignedListener>();

  /** Each kind of process registers its listener once, in onModuleInit. */
  onParticipantSigned(processKind: string, listener: ParticipantSignedListener): void {
    if (this.listeners.has(processKind)) throw new Error(`A listener for ${processKind} signings is already registered`);
    this.listeners.set(processKind, listener);
  }

  async tell(event: ParticipantSigned, manager: EntityManager): Promise<void> {
    await this.listeners.get(event.process.kind)?.(event, manager);
  }
}
