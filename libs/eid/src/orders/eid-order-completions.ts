import { Injectable, Logger } from '@nestjs/common';
import type { EidOrder } from './eid-order';
import type { EidOrderKind } from './eid-order-status';

/**
 * Told once per order, after the save that moved it to COMPLETE, whoever made it (the simulator, a
 * poll applying AUTO_COMPLETE, a sandbox shortcut): the lib that started the order looks it up by id
 * (an indexed column of its own) and applies the signature; it ignores orders it does not know.
 */
export type EidOrderCompletedListener = (order: EidOrder) => Promise<void>;

/**
 * The seam from the eid engine to the libs that start orders (bank §3.2: a signing takes effect
 * when it completes, not when the relying party next collects). Listeners must stay idempotent with
 * their own collect, which still applies a COMPLETE order it finds unapplied.
 */
@Injectable()
export class EidOrderCompletions {
  private readonly logger = new Logger(EidOrderCompletions.name);
  private readonly listeners = new Map<EidOrderKind, EidOrderCompletedListener[]>();

  /** Each lib that starts orders of this kind registers once, in onModuleInit. */
  onOrderComplete(kind: EidOrderKind, listener: EidOrderCompletedListener): void {
    this.listeners.set(kind, [...(this.listeners.get(kind) ?? []), listener]);
  }

  /**
   * Tells every listener of the order's kind. A failure is logged, not thrown: the order is COMPLETE
   * whatever a listener does, and the listener's lib catches up at its next collect.
   */
  async tell(order: EidOrder): Promise<void> {
    for (const listener of this.listeners.get(order.kind) ?? []) {
      try {
        await listener(order);
      } catch (error) {
        this.logger.error(`a listener of completed eid order ${order.id} failed; the next collect applies it`, error instanceof Error ? error.stack : String(error));
      }
    }
  }
}
