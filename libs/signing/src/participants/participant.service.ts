import { Injectable, OnModuleInit } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { Clock, SandboxDb } from '@app/common';
import { type EidOrder, EidOrderCompletions } from '@app/eid';
import { SigningClosed, UnknownParticipant } from '../signing.errors';
import type { Participant, SigningProcess } from './participant';
import { ParticipantEntity } from './participant.entity';
import { ParticipantRepository } from './participant.repository';
import { SigningAdmissions } from './signing-admissions';
import { SigningCompletions } from './signing-completions';

const toParticipant = (entity: ParticipantEntity): Participant => ({
  id: entity.id,
  personalNumber: entity.personalNumber,
  signedAt: entity.signedAt,
});

/** Participants of signing processes; the mortgage lib registers them, the signing interface signs them. */
@Injectable()
export class ParticipantService implements OnModuleInit {
  constructor(
    private readonly db: SandboxDb,
    private readonly participants: ParticipantRepository,
    private readonly completions: SigningCompletions,
    private readonly admissions: SigningAdmissions,
    private readonly eidCompletions: EidOrderCompletions,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    this.eidCompletions.onOrderComplete('signing', (order) => this.signedWith(order));
  }

  /** Registers the people who sign in a process, in order (the main applicant first). */
  async register(process: SigningProcess, personalNumbers: string[]): Promise<Participant[]> {
    const createdAt = this.clock.now();
    const entities = personalNumbers.map((personalNumber, i) =>
      Object.assign(new ParticipantEntity(), {
        id: randomUUID(),
        partnerId: process.partnerId,
        processKind: process.kind,
        processId: process.id,
        personalNumber,
        currentOrderId: null,
        currentOrderKind: null,
        signedAt: null,
        // Keeps the given order when listed (created_at, then id).
        createdAt: new Date(createdAt.getTime() + i),
      }),
    );
    await this.participants.insert(entities);
    return entities.map(toParticipant);
  }

  async list(process: Omit<SigningProcess, 'partnerId'>): Promise<Participant[]> {
    return (await this.participants.listByProcess(process.kind, process.id)).map(toParticipant);
  }

  /**
   * Before a signing starts, the owning process decides: 404 when it is gone for the caller (as an
   * unknown participant), 409 INVALID_STATE when its state takes no signature (contract §2).
   */
  async admitSigning(participant: ParticipantEntity): Promise<void> {
    const admission = await this.admissions.admit({ kind: participant.processKind, id: participant.processId, partnerId: participant.partnerId });
    if (admission.verdict === 'gone') throw new UnknownParticipant(participant.id);
    if (admission.verdict === 'closed') throw new SigningClosed(participant.id, admission.why);
  }

  /**
   * Marks a participant signed (once) and tells the owning process, in one transaction. Used when a
   * signing completes, and by the sandbox routes that simulate a signature.
   */
  async recordSigned(participant: ParticipantEntity, signedAt: Date): Promise<void> {
    await this.db.transaction(async () => {
      if (!(await this.participants.markSigned(participant.id, signedAt))) return;
      await this.completions.tell(
        {
          participantId: participant.id,
          process: { kind: participant.processKind, id: participant.processId, partnerId: participant.partnerId },
          personalNumber: participant.personalNumber,
          signedAt,
        },
      );
    });
  }

  /**
   * The eid seam (bank §3.2): the participant whose current order just completed signs at its
   * finish, without waiting for the partner's collect (which still records it, once, if this failed).
   * Another lib's signing order (a transfer signing) names no participant.
   */
  private async signedWith(order: EidOrder): Promise<void> {
    const participant = await this.participants.findByCurrentOrder(order.id);
    if (participant && !participant.signedAt) await this.recordSigned(participant, order.finishedAt ?? this.clock.now());
  }

  /** Sandbox only: the participant of this process signs now, without an eid order (e.g. PUT …/sign-bankid). */
  async signNow(participantId: string, process: SigningProcess): Promise<void> {
    const participant = await this.participants.findOwned(participantId, process.partnerId);
    if (!participant || participant.processKind !== process.kind || participant.processId !== process.id) throw new UnknownParticipant(participantId);
    await this.recordSigned(participant, this.clock.now());
  }
}
