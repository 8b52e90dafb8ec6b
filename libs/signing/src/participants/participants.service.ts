import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { Clock } from '@app/common';
import type { Participant, SigningProcess } from './participant';
import { ParticipantEntity } from './participant.entity';
import { ParticipantRepository } from './participant.repository';

const toParticipant = (entity: ParticipantEntity): Participant => ({
  id: entity.id,
  personalNumber: entity.personalNumber,
  signedAt: entity.signedAt,
});

/** Participants of signing processes; the mortgage lib registers them, the signing interface signs them. */
@Injectable()
export class ParticipantsService {
  constructor(
    private readonly participants: ParticipantRepository,
    private readonly clock: Clock,
  ) {}

  /** Registers the people who sign in a process, in order (the main applicant first). */
  async register(process: SigningProcess, personalNumbers: string[], manager?: EntityManager): Promise<Participant[]> {
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
    await this.participants.insert(entities, manager);
    return entities.map(toParticipant);
  }

  async list(process: Omit<SigningProcess, 'partnerId'>, manager?: EntityManager): Promise<Participant[]> {
    return (await this.participants.listByProcess(process.kind, process.id, manager)).map(toParticipant);
  }
}
