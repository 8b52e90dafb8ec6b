import { Injectable } from '@nestjs/common';
import { Clock, formatStockholmOffset, type PersonalNumber, RequestHints, SandboxDb } from '@app/common';
import { type Partner, UserService } from '@app/directory';
import { type CallInitiator, type EidOrder, EidOrderService, isOpenOrder, shownHintCode } from '@app/eid';
import type { ParticipantEntity } from '../participants/participant.entity';
import { ParticipantRepository } from '../participants/participant.repository';
import { ParticipantService } from '../participants/participant.service';
import { AlreadySigned, NoSigningStarted, SigningInProgress, UnknownParticipant } from '../signing.errors';
import { CollectSigningResponseDto, StartSigningResponseDto } from './signing.dto';
import { SigningPersonRepository } from './signing-person.repository';
import { decide, type StartKind } from './signing-rules';

export interface StartSigning {
  kind: StartKind;
  participantId: string;
  partner: Partner;
  /** The caller's IP (contract §11): the TCP peer, or X-Forwarded-For's client with TRUST_PROXY. */
  ip: string;
  callInitiator?: CallInitiator;
}

/**
 * The partner signing interface (bank §4.4, §7.2; contract §11) on the eid engine. Starts and cancels
 * decide under the row lock of the person's signing state, so the rules hold across instances.
 */
@Injectable()
export class SigningService {
  constructor(
    private readonly db: SandboxDb,
    private readonly repository: ParticipantRepository,
    private readonly participants: ParticipantService,
    private readonly persons: SigningPersonRepository,
    private readonly eid: EidOrderService,
    private readonly users: UserService,
    private readonly clock: Clock,
  ) {}

  async start(request: StartSigning): Promise<StartSigningResponseDto> {
    const participant = await this.owned(request.participantId, request.partner);
    await this.participants.admitSigning(participant);
    if (participant.signedAt) throw new AlreadySigned(participant.id);
    const user = await this.users.find(participant.personalNumber as PersonalNumber);
    // A signing open with another bank refuses every start (contract §4, §11).
    if (!user || user.busyElsewhere) throw new SigningInProgress();
    const order = await this.db.transaction(async () => {
      const person = await this.persons.lock(participant.personalNumber);
      const now = this.clock.now();
      if (person.blockedUntil && person.blockedUntil > now) {
        hintBlocked(person.blockedUntil);
        return null;
      }
      const open = person.orderId ? await this.eid.get(person.orderId) : null;
      const isOpen = open !== null && isOpenOrder(open);
      // A block is cleared when an order starts, so one that has ended was set while this order was open.
      const outlivedBlock = person.blockedUntil !== null && person.blockedUntil <= now;
      const decision = decide(isOpen ? { kind: person.orderKind!, ip: person.orderIp!, retryArmed: person.retryArmed, outlivedBlock } : null, request);
      if (decision.outcome === 'refuse') {
        // Bank §7.2: after a same-IP refusal the next start succeeds without cancel (contract §14).
        if (decision.armRetry) RequestHints.raise('SIGNING_RETRY_WITHOUT_CANCEL');
        await this.persons.save(
          {
            ...person,
            retryArmed: decision.armRetry ?? person.retryArmed,
            blockedUntil: decision.blockSeconds ? new Date(now.getTime() + decision.blockSeconds * 1000) : person.blockedUntil,
          },
        );
        return null;
      }
      if (decision.outcome === 'replace') await this.eid.cancel(person.orderId!);
      const started = await this.eid.start(
        {
          kind: 'signing',
          channel: request.kind === 'phone' ? 'phone' : 'app',
          callInitiator: request.callInitiator,
          personalNumber: participant.personalNumber,
          requestedBy: request.partner.name,
          behaviour: user.eidBehaviour,
        },
      );
      await this.persons.save({ ...person, orderId: started.id, orderKind: request.kind, orderIp: request.ip, retryArmed: false, blockedUntil: null });
      await this.repository.setCurrentOrder(participant.id, started.id, request.kind);
      return started;
    });
    // Thrown after the commit: a refusal still records its block or armed retry.
    if (!order) throw new SigningInProgress();
    return { autostart_token: order.autostartToken, qr_string: order.qrString ?? '' };
  }

  /**
   * Bank §3.2: the state as the user's app leaves it. The completion already signed the participant
   * (ParticipantService's eid listener); a COMPLETE order found unrecorded (that listener failed) is
   * recorded here, once.
   */
  async collect(participantId: string, partner: Partner): Promise<CollectSigningResponseDto> {
    // While the signing runs, one statement: the order, read through the partner's own participant.
    const order = await this.eid.pollReferenced(this.repository.currentOrderOf(participantId.toLowerCase(), partner.id));
    if (!order) throw new NoSigningStarted((await this.owned(participantId, partner)).id);
    if (order.status === 'COMPLETE') {
      const participant = await this.owned(participantId, partner);
      if (!participant.signedAt) await this.participants.recordSigned(participant, order.finishedAt ?? this.clock.now());
    }
    return toCollect(order);
  }

  /**
   * Contract §8, a user seeded again is as if new: the person's contract §11 state goes (its block,
   * the open order's kind and IP, an armed retry). Its open order is the eid engine's to cancel;
   * participants keep their signatures, which belong to the partner's process.
   */
  forgetPerson(personalNumber: string): Promise<void> {
    return this.persons.delete(personalNumber);
  }

  /** 204, also when nothing is open; while the person is blocked, 409 (contract §11). */
  async cancel(participantId: string, partner: Partner): Promise<void> {
    const participant = await this.owned(participantId, partner);
    const blocked = await this.db.transaction(async () => {
      const person = await this.persons.lock(participant.personalNumber);
      if (person.blockedUntil && person.blockedUntil > this.clock.now()) {
        hintBlocked(person.blockedUntil);
        return true;
      }
      if (participant.currentOrderId) await this.cancelIfOpen(participant.currentOrderId);
      if (person.orderId && person.orderId === participant.currentOrderId) {
        await this.persons.save({ ...person, orderId: null, orderKind: null, orderIp: null, retryArmed: false });
      }
      return false;
    });
    if (blocked) throw new SigningInProgress();
  }

  private async cancelIfOpen(orderId: string): Promise<void> {
    const order = await this.eid.get(orderId);
    if (isOpenOrder(order)) await this.eid.cancel(orderId);
  }

  private async owned(participantId: string, partner: Partner): Promise<ParticipantEntity> {
    const participant = await this.repository.findOwned(participantId.toLowerCase(), partner.id);
    if (!participant) throw new UnknownParticipant(participantId);
    return participant;
  }
}

/** A start or cancel refused during a block (contract §11): its hint says when the block ends (contract §14). */
function hintBlocked(blockedUntil: Date): void {
  RequestHints.raise('SIGNING_BLOCKED', { until: formatStockholmOffset(blockedUntil) });
}

/** Bank §2.5 CollectSigningResponse: hint for PENDING and FAILED, QR while outstanding (app orders), signed_at when COMPLETE. */
function toCollect(order: EidOrder): CollectSigningResponseDto {
  const hintCode = shownHintCode(order);
  return {
    status: order.status,
    ...(hintCode ? { hint_code: hintCode } : {}),
    ...(order.qrString ? { qr_string: order.qrString } : {}),
    ...(order.status === 'COMPLETE' && order.finishedAt ? { signed_at: formatStockholmOffset(order.finishedAt) } : {}),
  };
}
