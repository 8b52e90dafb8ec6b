import { Injectable } from '@nestjs/common';
import QRCode from 'qrcode';
import { Clock, hashUuidSecret, PersonalNumberReader, ValidationFailed } from '@app/common';
import type { FailedHintCode, PendingHintCode } from '../eid-catalogue';
import { type EidUserCard, EidUserDirectory } from '../eid-user-directory';
import { InvalidEidTransition, NotTheOrderSubject } from '../eid.errors';
import { EidOrder } from '../orders/eid-order';
import { EidOrderEntity } from '../orders/eid-order.entity';
import { ACTIVATION_LIMIT_S, isOpenStatus, ORDER_LIFETIME_S, QR_ACCEPT_WINDOW_S } from '../orders/eid-order-status';
import { EidOrderRepository } from '../orders/eid-order.repository';
import { EidOrderService } from '../orders/eid-order.service';
import { parseQrString, qrCodeMatches } from '../orders/qr-string';
import { OperationDto, OperationViewDto } from './simulator.dto';

/** How many sandbox users the simulator page offers in its user picker. */
const USER_PICKER_SIZE = 200;

/**
 * The stand-in for the identity app (contract §4). Capability-based: holding the autostart token or
 * a current QR string is the right to act, as with a real app; phone orders are found by person.
 */
@Injectable()
export class EidSimulatorService {
  constructor(
    private readonly orders: EidOrderService,
    private readonly repository: EidOrderRepository,
    private readonly users: EidUserDirectory,
    private readonly personalNumbers: PersonalNumberReader,
    private readonly clock: Clock,
  ) {}

  /** The app opens the order named by an autostart token or a fresh QR string. */
  async openByToken(token: string, personalNumberText?: string): Promise<EidOrder> {
    const subject = personalNumberText === undefined ? undefined : await this.knownUser(personalNumberText);
    const find = () => this.findByToken(token.trim());
    return this.orders.change(find, (order, now) => {
      const closed = order.applyTimeRules(now);
      if (subject && order.kind === 'signing' && subject !== order.personalNumber) throw new NotTheOrderSubject();
      return order.open(now, order.kind === 'authentication' ? subject : undefined) || closed;
    });
  }

  /** Every open phone order of a person (the app on that person's phone). */
  async listPhoneOrders(personalNumberText: string): Promise<OperationDto[]> {
    const personalNumber = this.personalNumbers.read(personalNumberText);
    const open = await this.repository.listOpenPhoneOrders(personalNumber);
    const now = this.clock.now();
    // Orders the time rules have closed are no longer open, even before the expiry job saw them.
    return open
      .filter((order) => !order.applyTimeRules(now))
      .map((order) => ({
        operation_id: order.id,
        kind: order.kind,
        status: order.status,
        ...(order.hintCode ? { hint_code: order.hintCode } : {}),
        started_at: order.startedAt.toISOString(),
      }));
  }

  /** The app opens the order; for an authentication, `personalNumberText` chooses who authenticates. */
  async open(id: string, personalNumberText?: string): Promise<EidOrder> {
    const subject = personalNumberText === undefined ? undefined : await this.knownUser(personalNumberText);
    return this.act(id, (order, now) => {
      if (subject && order.kind === 'signing' && subject !== order.personalNumber) throw new NotTheOrderSubject();
      return order.open(now, order.kind === 'authentication' ? subject : undefined);
    });
  }

  /** What the app shows of an order (time rules applied; nothing else changes). */
  async view(id: string): Promise<OperationViewDto> {
    const order = await this.orders.get(id);
    const user = await this.users.describe(order.personalNumber);
    const ageSeconds = Math.floor((this.clock.now().getTime() - order.startedAt.getTime()) / 1000);
    return {
      operation_id: order.id,
      kind: order.kind,
      channel: order.channel,
      ...(order.callInitiator ? { call_initiator: order.callInitiator } : {}),
      status: order.status,
      ...(order.hintCode ? { hint_code: order.hintCode } : {}),
      requested_by: order.requestedBy,
      personal_number: order.personalNumber,
      user_name: user?.name ?? null,
      started_at: order.startedAt.toISOString(),
      ...(order.finishedAt ? { finished_at: order.finishedAt.toISOString() } : {}),
      seconds_since_start: ageSeconds,
      seconds_left: isOpenStatus(order.status) ? Math.max(0, ORDER_LIFETIME_S - ageSeconds) : 0,
      activation_limit_seconds: ACTIVATION_LIMIT_S,
      ...(order.qrString ? { qr_string: order.qrString } : {}),
    };
  }

  /** The order's current dynamic QR string as an SVG image (open app orders only, else 409). */
  async qrImage(id: string): Promise<string> {
    const order = await this.orders.get(id);
    if (!order.qrString) throw new InvalidEidTransition(order.id, isOpenStatus(order.status) ? 'is a phone order: it has no QR code' : `is ${order.status}, no longer open`);
    return QRCode.toString(order.qrString, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  }

  /** Sandbox users for the page's user picker. */
  pickableUsers(): Promise<EidUserCard[]> {
    return this.users.list(USER_PICKER_SIZE);
  }

  complete(id: string): Promise<EidOrder> {
    return this.act(id, (order, now) => order.complete(now));
  }

  fail(id: string, hint: FailedHintCode): Promise<EidOrder> {
    return this.act(id, (order, now) => order.fail(hint, now));
  }

  hint(id: string, hint: PendingHintCode): Promise<EidOrder> {
    return this.act(id, (order, now) => order.setHint(hint, now));
  }

  confirmCall(id: string): Promise<EidOrder> {
    return this.act(id, (order, now) => order.confirmCall(now));
  }

  declineCall(id: string): Promise<EidOrder> {
    return this.act(id, (order, now) => order.declineCall(now));
  }

  /**
   * The time rules, then `action`, which returns whether it changed the order: one that changes
   * nothing (an order opened again) writes nothing, so identical actions in parallel all succeed.
   */
  private act(id: string, action: (order: EidOrderEntity, now: Date) => boolean): Promise<EidOrder> {
    return this.orders.change(
      () => this.repository.findById(id),
      (order, now) => {
        const closed = order.applyTimeRules(now);
        return action(order, now) || closed;
      },
    );
  }

  private async findByToken(token: string): Promise<EidOrderEntity | null> {
    const qr = parseQrString(token);
    if (!qr) {
      return /^[0-9a-f-]{36}$/i.test(token) ? this.repository.findByAutostartTokenHash(hashUuidSecret(token)) : null;
    }
    const order = await this.repository.findByQrStartToken(qr.qrStartToken);
    if (!order || !qrCodeMatches(qr, order.qrStartSecret)) return null;
    const shownAt = order.startedAt.getTime() + qr.t * 1000;
    // Accepted while less than 5 s from its t: at exactly 5 s it is stale (contract §4, §6: periods are half-open).
    if (Math.abs(this.clock.now().getTime() - shownAt) >= QR_ACCEPT_WINDOW_S * 1000) {
      throw new ValidationFailed(`token: this QR string is ${QR_ACCEPT_WINDOW_S} seconds old or more; scan the current one`);
    }
    return order;
  }

  private async knownUser(text: string): Promise<string> {
    const personalNumber = this.personalNumbers.read(text);
    if ((await this.users.behaviourOf(personalNumber)) === null) {
      throw new ValidationFailed(`personal_number ${personalNumber} is not a sandbox user`);
    }
    return personalNumber;
  }
}
