import { Injectable, Logger } from '@nestjs/common';
import { Clock, type DueWork, RequestHints } from '@app/common';
import { EidUserDirectory } from '../eid-user-directory';
import { EidOrderContended, UnknownEidOrder } from '../eid.errors';
import { EidOrder, type EidOrderReference, isOpenOrder, StartedEidOrder } from './eid-order';
import { EidOrderCompletions } from './eid-order-completions';
import { EidOrderEntity, type StartEidOrder } from './eid-order.entity';
import { EidOrderRepository } from './eid-order.repository';
import { qrString } from './qr-string';

/** Optimistic retries when concurrent readers change the same order. */
const MAX_ATTEMPTS = 5;
/** Polls of a finished order this long after it was first reported final earn a hint (contract §14). */
const POLLED_AFTER_FINAL_S = 10;

/** A poll's change: the time rules, then the user's behaviour (contract §4). */
const applyBehaviour = (order: EidOrderEntity, now: Date): boolean => order.applyBehaviour(now);

/** The subject's behaviour is looked up unless the caller, who read the user already, passes it. */
export type StartRequest = Omit<StartEidOrder, 'behaviour'> & { behaviour?: StartEidOrder['behaviour'] };

/**
 * The simulated identity service: one engine for every eid order (PSD2 authentication, transfer
 * signing, partner signing). Callers map its statuses to their own interface's words.
 */
@Injectable()
export class EidOrderService {
  private readonly logger = new Logger(EidOrderService.name);

  constructor(
    private readonly orders: EidOrderRepository,
    private readonly clock: Clock,
    private readonly users: EidUserDirectory,
    private readonly completions: EidOrderCompletions,
  ) {}

  /**
   * Starts an order for a sandbox user, with that user's eid behaviour (the caller checked the user
   * exists). The answer carries the autostart token, for the caller's answer to show once.
   */
  async start(request: StartRequest): Promise<StartedEidOrder> {
    const behaviour = request.behaviour ?? (await this.users.behaviourOf(request.personalNumber)) ?? 'NO_RESPONSE';
    const { order, autostartToken } = EidOrderEntity.start({ ...request, behaviour }, this.clock.now());
    await this.orders.insert(order);
    return { ...this.snapshot(order), autostartToken };
  }

  /**
   * The order as the user's app leaves it when the relying party polls (status, collect): the time
   * rules, then the behaviour (contract §4).
   */
  async poll(id: string): Promise<EidOrder> {
    return this.polled(await this.change(() => this.orders.findById(id), applyBehaviour));
  }

  /** As `poll`, for the order another lib's row refers to, read with that row in one statement; null when it names none. */
  async pollReferenced(reference: EidOrderReference): Promise<EidOrder | null> {
    const order = await this.changeIfFound(() => this.orders.findReferenced(reference), applyBehaviour);
    return order && this.polled(order);
  }

  private polled(order: EidOrder): Promise<EidOrder> | EidOrder {
    return isOpenOrder(order) ? order : this.reportedFinal(order);
  }

  /**
   * The first poll that answers an order final records when (one conditional update, once per
   * order). Later polls earn hints (contract §14): after COLLECT_ERROR, start a new signing (bank
   * §3.2); from 10 s after COMPLETE or FAILED on (the grace is over at 10 s: periods are half-open,
   * contract §6), status and collect serve PENDING orders only
   * (bank §3.1).
   */
  private async reportedFinal(order: EidOrder): Promise<EidOrder> {
    const now = this.clock.now();
    if (order.finalReportedAt === null) {
      return { ...order, finalReportedAt: (await this.orders.recordFinalReported(order.id, now)) ?? now };
    }
    if (order.status === 'COLLECT_ERROR') {
      RequestHints.raise('START_AFTER_COLLECT_ERROR');
      return order;
    }
    const sinceFinal = now.getTime() - order.finalReportedAt.getTime();
    if (sinceFinal >= POLLED_AFTER_FINAL_S * 1000) RequestHints.raise('POLLED_AFTER_FINAL', { state: order.status, secondsAgo: Math.floor(sinceFinal / 1000) });
    return order;
  }

  /** The order with the time rules applied (no behaviour): for reads that are not polls. */
  get(id: string): Promise<EidOrder> {
    return this.change(() => this.orders.findById(id), (order, now) => order.applyTimeRules(now));
  }

  /**
   * The newest open orders, as the time rules leave them now (an order they closed is not open,
   * even before the expiry job saw it); reading changes nothing.
   */
  async listOpen(limit: number): Promise<EidOrder[]> {
    const now = this.clock.now();
    const open = await this.orders.listOpen(limit);
    return open.filter((order) => !order.applyTimeRules(now)).map((order) => this.snapshot(order));
  }

  /** Cancels an open order (FAILED CANCELLED); a finished one is 409 INVALID_STATE. */
  cancel(id: string): Promise<EidOrder> {
    return this.change(
      () => this.orders.findById(id),
      (order, now) => {
        order.applyTimeRules(now);
        order.cancel(now);
        return true;
      },
    );
  }

  /** The user signs or identifies now (sandbox shortcuts such as PUT …/sign-bankid); 409 when no longer open. */
  complete(id: string): Promise<EidOrder> {
    return this.change(() => this.orders.findById(id), (order, now) => {
      order.applyTimeRules(now);
      order.complete(now);
      return true;
    });
  }

  /**
   * Applies the time rules, then `act`, and saves with a version check, reading again when another
   * request changed the order in between. `act` returns whether it changed anything. When every
   * save lost, nothing was changed: 503 CONCURRENT_CHANGES rather than a state the row does not hold.
   */
  async change(
    find: () => Promise<EidOrderEntity | null>,
    act: (order: EidOrderEntity, now: Date) => boolean,
  ): Promise<EidOrder> {
    const order = await this.changeIfFound(find, act);
    if (!order) throw new UnknownEidOrder();
    return order;
  }

  /**
   * As `change`; null when `find` finds no order. The save that moves an order to COMPLETE tells the
   * completion listeners, after it: COMPLETE is final and saves are version-checked, so exactly one
   * save per order does. Reads that change nothing (a PENDING poll) tell nobody.
   */
  private async changeIfFound(
    find: () => Promise<EidOrderEntity | null>,
    act: (order: EidOrderEntity, now: Date) => boolean,
  ): Promise<EidOrder | null> {
    for (let attempt = 1; ; attempt++) {
      const order = await find();
      if (!order) return null;
      const wasComplete = order.status === 'COMPLETE';
      const now = this.clock.now();
      const changed = act(order, now);
      if (!changed) return this.snapshot(order);
      if (await this.orders.saveIfUnchanged(order)) {
        const saved = this.snapshot(order);
        if (!wasComplete && saved.status === 'COMPLETE') await this.completions.tell(saved);
        return saved;
      }
      if (attempt >= MAX_ATTEMPTS) {
        this.logger.warn(`eid order ${order.id} kept changing under us; ${MAX_ATTEMPTS} saves lost`);
        throw new EidOrderContended(order.id);
      }
    }
  }

  /**
   * Contract §8, a user seeded again: no order of theirs stays open. The time rules first (an order
   * they have closed keeps their outcome), then every open order of the person is FAILED
   * CANCELLED, as a cancel leaves it; finished orders stay, the record of the processes that used them.
   */
  async cancelOpenOrdersOf(personalNumber: string): Promise<void> {
    const now = this.clock.now();
    await this.orders.expireStale(now);
    const cancelled = await this.orders.cancelOpenOf(personalNumber, now);
    if (cancelled > 0) this.logger.log(`eid orders cancelled for a user seeded again: ${cancelled}`);
  }

  /** Where expireStale has work now, across sandboxes (the expiry job's scheduled pass). */
  dueWork(): DueWork {
    return this.orders.dueWork();
  }

  /** Closes stale open orders by the time rules (the expiry job). */
  async expireStale(): Promise<void> {
    const { startFailed, expired } = await this.orders.expireStale(this.clock.now());
    if (startFailed + expired > 0) this.logger.log(`eid orders closed: ${startFailed} START_FAILED, ${expired} EXPIRED_TRANSACTION`);
  }

  snapshot(order: EidOrderEntity): EidOrder {
    return {
      id: order.id,
      kind: order.kind,
      channel: order.channel,
      callInitiator: order.callInitiator,
      personalNumber: order.personalNumber,
      requestedBy: order.requestedBy,
      status: order.status,
      hintCode: order.hintCode,
      startedAt: order.startedAt,
      finishedAt: order.finishedAt,
      finalReportedAt: order.finalReportedAt,
      qrString: order.isOpen && order.channel === 'app' ? qrString(order.qrStartToken, order.qrStartSecret, order.startedAt, this.clock.now()) : null,
    };
  }
}
