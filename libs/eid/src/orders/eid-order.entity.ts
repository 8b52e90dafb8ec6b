import { randomBytes, randomUUID } from 'node:crypto';
import { Column, Entity, PrimaryColumn } from 'typeorm';
import { hashUuidSecret, SandboxIdColumn } from '@app/common';
import { type EidBehaviour, type FailedHintCode, failureHintOf, type HintCode, type PendingHintCode } from '../eid-catalogue';
import { InvalidEidTransition } from '../eid.errors';
import {
  ACTIVATION_LIMIT_S,
  type CallInitiator,
  EID_ORDER_LIFECYCLE,
  type EidChannel,
  type EidOrderKind,
  type EidOrderStatus,
  isOpenStatus,
  ORDER_LIFETIME_S,
} from './eid-order-status';

/** Hints that say the app has not been opened yet (contract §4, simulator `hint`). */
const NOT_OPENED_HINTS: readonly PendingHintCode[] = ['OUTSTANDING_TRANSACTION', 'NO_CLIENT'];

export interface StartEidOrder {
  kind: EidOrderKind;
  channel: EidChannel;
  personalNumber: string;
  behaviour: EidBehaviour;
  requestedBy: string;
  callInitiator?: CallInitiator;
}

const secondsSince = (start: Date, now: Date) => (now.getTime() - start.getTime()) / 1000;

/**
 * An order of the simulated identity service: an authentication or a signing by one person,
 * started by autostart token / QR code or during a phone call. Its status moves only through the
 * methods below, each checked against the table in eid-order-status.ts. Time comes in as `now`.
 * Each returns whether the order changed: one that finds the order as it would leave it (opened
 * again, the same hint, a call confirmed twice) changes nothing, so nothing is written and it cannot
 * lose to a concurrent identical action (503 CONCURRENT_CHANGES).
 */
@Entity({ name: 'eid_order' })
export class EidOrderEntity {
  /** The sandbox the row belongs to (contract §13): filled and matched by SandboxDb, never read. */
  @SandboxIdColumn()
  sandboxId?: string;

  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ type: 'text' })
  kind: EidOrderKind;

  @Column({ type: 'text' })
  channel: EidChannel;

  @Column({ name: 'call_initiator', type: 'text', nullable: true })
  callInitiator: CallInitiator | null;

  /** Who authenticates or signs. For an authentication the app may name another user on open. */
  @Column({ name: 'personal_number', type: 'char', length: 12 })
  personalNumber: string;

  /** The subject's eid behaviour when the order started (contract §4). */
  @Column({ type: 'text' })
  behaviour: EidBehaviour;

  /** Who asks, for the simulator page: a TPP's organizationIdentifier or a partner's name. */
  @Column({ name: 'requested_by', type: 'text' })
  requestedBy: string;

  @Column({ type: 'text' })
  status: EidOrderStatus;

  @Column({ name: 'hint_code', type: 'text', nullable: true })
  hintCode: HintCode | null;

  @Column({ name: 'started_at', type: 'timestamptz' })
  startedAt: Date;

  @Column({ name: 'app_opened_at', type: 'timestamptz', nullable: true })
  appOpenedAt: Date | null;

  @Column({ name: 'call_confirmed_at', type: 'timestamptz', nullable: true })
  callConfirmedAt: Date | null;

  @Column({ name: 'finished_at', type: 'timestamptz', nullable: true })
  finishedAt: Date | null;

  /**
   * When a poll (status, collect) first answered the order COMPLETE or FAILED (sandbox clock): the
   * rule hints of contract §14 measure later polls and a token exchange against it.
   */
  @Column({ name: 'final_reported_at', type: 'timestamptz', nullable: true })
  finalReportedAt: Date | null;

  /** SHA-256 of the autostart token: the token itself is shown once, in the answer that starts the order. */
  @Column({ name: 'autostart_token_hash', type: 'char', length: 64 })
  autostartTokenHash: string;

  @Column({ name: 'qr_start_token', type: 'uuid' })
  qrStartToken: string;

  /** Keys the HMAC of the dynamic QR string; never sent to a client. */
  @Column({ name: 'qr_start_secret', type: 'text' })
  qrStartSecret: string;

  /** Optimistic lock: every change is `UPDATE … WHERE version = <the version read>`. */
  @Column({ type: 'integer' })
  version: number;

  /**
   * A new order: PENDING OUTSTANDING_TRANSACTION, or INITIATED for a phone order (contract §4), and
   * its autostart token, which only the answer that starts the order ever shows.
   */
  static start(request: StartEidOrder, now: Date): { order: EidOrderEntity; autostartToken: string } {
    const order = new EidOrderEntity();
    order.id = randomUUID();
    order.kind = request.kind;
    order.channel = request.channel;
    order.callInitiator = request.callInitiator ?? null;
    order.personalNumber = request.personalNumber;
    order.behaviour = request.behaviour;
    order.requestedBy = request.requestedBy;
    order.status = request.channel === 'phone' ? 'INITIATED' : 'PENDING';
    order.hintCode = request.channel === 'phone' ? null : 'OUTSTANDING_TRANSACTION';
    order.startedAt = now;
    // Every behaviour but MANUAL and NO_RESPONSE has an app that answers at once.
    order.appOpenedAt = request.behaviour === 'MANUAL' || request.behaviour === 'NO_RESPONSE' ? null : now;
    order.callConfirmedAt = null;
    order.finishedAt = null;
    order.finalReportedAt = null;
    const autostartToken = randomUUID();
    order.autostartTokenHash = hashUuidSecret(autostartToken);
    order.qrStartToken = randomUUID();
    order.qrStartSecret = randomBytes(32).toString('hex');
    order.version = 1;
    return { order, autostartToken };
  }

  get isOpen(): boolean {
    return isOpenStatus(this.status);
  }

  /**
   * The time rules of contract §4, in their order: not opened by the app within 30 s → FAILED
   * START_FAILED; not finished within 3 minutes → FAILED EXPIRED_TRANSACTION. (Cancel finishes an
   * order at once.) Returns whether the order changed.
   */
  applyTimeRules(now: Date): boolean {
    if (!this.isOpen) return false;
    const age = secondsSince(this.startedAt, now);
    if (!this.appOpenedAt && age >= ACTIVATION_LIMIT_S) return this.finish('FAILED', 'START_FAILED', now);
    if (age >= ORDER_LIFETIME_S) return this.finish('FAILED', 'EXPIRED_TRANSACTION', now);
    return false;
  }

  /**
   * What the user's app does when the order is read by status or collect (contract §4), after the
   * time rules. Returns whether the order changed.
   */
  applyBehaviour(now: Date): boolean {
    if (this.applyTimeRules(now)) return true;
    if (!this.isOpen) return false;
    const failure = failureHintOf(this.behaviour);
    if (failure) return this.finish('FAILED', failure, now);
    switch (this.behaviour) {
      case 'AUTO_COMPLETE':
        // The app picks up, confirms a call and signs at once.
        this.callConfirmedAt ??= now;
        return this.finish('COMPLETE', null, now);
      case 'COLLECT_ERROR':
        // An authentication has no COLLECT_ERROR status: it fails with UNKNOWN (contract §4).
        return this.kind === 'signing' ? this.finish('COLLECT_ERROR', null, now) : this.finish('FAILED', 'UNKNOWN', now);
      default:
        return false;
    }
  }

  /** The app opens the order (simulator open; a phone order is picked up). */
  open(now: Date, personalNumber?: string): boolean {
    this.requireOpen();
    const chosen = personalNumber !== undefined && personalNumber !== this.personalNumber;
    if (chosen) this.personalNumber = personalNumber;
    const opened = this.markAppOpened(now);
    const moved = this.moveTo('PENDING', this.channel === 'phone' && !this.callConfirmedAt ? 'USER_CALL_CONFIRM' : 'USER_SIGN');
    return chosen || opened || moved;
  }

  complete(now: Date): true {
    this.requireOpen();
    this.markAppOpened(now);
    return this.finish('COMPLETE', null, now);
  }

  fail(hint: FailedHintCode, now: Date): true {
    this.requireOpen();
    return this.finish('FAILED', hint, now);
  }

  cancel(now: Date): true {
    this.requireOpen();
    return this.finish('FAILED', 'CANCELLED', now);
  }

  /** Sets the PENDING hint; any hint but OUTSTANDING_TRANSACTION and NO_CLIENT means the app is open. */
  setHint(hint: PendingHintCode, now: Date): boolean {
    this.requireOpen();
    const opened = !NOT_OPENED_HINTS.includes(hint) && this.markAppOpened(now);
    const moved = this.moveTo('PENDING', hint);
    return opened || moved;
  }

  confirmCall(now: Date): boolean {
    this.requirePhoneOrder();
    const opened = this.markAppOpened(now);
    const confirmed = this.callConfirmedAt === null;
    this.callConfirmedAt ??= now;
    const moved = this.moveTo('PENDING', 'USER_SIGN');
    return opened || confirmed || moved;
  }

  declineCall(now: Date): true {
    this.requirePhoneOrder();
    return this.finish('FAILED', 'USER_DECLINED_CALL', now);
  }

  /** Records when the app first opened the order; whether this was that first time. */
  private markAppOpened(now: Date): boolean {
    if (this.appOpenedAt) return false;
    this.appOpenedAt = now;
    return true;
  }

  private requirePhoneOrder(): void {
    this.requireOpen();
    if (this.channel !== 'phone') throw new InvalidEidTransition(this.id, 'is not a phone order');
  }

  private requireOpen(): void {
    if (!this.isOpen) throw new InvalidEidTransition(this.id, `is ${this.status}, no longer open`);
  }

  private finish(status: EidOrderStatus, hint: HintCode | null, now: Date): true {
    this.moveTo(status, hint);
    this.finishedAt = now;
    return true;
  }

  /** The only place status is assigned; PENDING → PENDING changes the hint only. Returns whether either changed. */
  private moveTo(status: EidOrderStatus, hint: HintCode | null): boolean {
    if (status === this.status && hint === this.hintCode) return false;
    if (status !== this.status) {
      EID_ORDER_LIFECYCLE.assertMove(this.status, status, () => new InvalidEidTransition(this.id, `cannot move from ${this.status} to ${status}`));
    }
    this.status = status;
    this.hintCode = hint;
    return true;
  }
}
