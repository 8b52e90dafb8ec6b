import type { HintCode } from '../eid-catalogue';
import { isOpenStatus, type CallInitiator, type EidChannel, type EidOrderKind, type EidOrderStatus } from './eid-order-status';

/** What other libs see of an order: a snapshot, read-only, without its QR secret or autostart token. */
export interface EidOrder {
  id: string;
  kind: EidOrderKind;
  channel: EidChannel;
  callInitiator: CallInitiator | null;
  personalNumber: string;
  /** Who asks: a TPP's organizationIdentifier or a partner's name. */
  requestedBy: string;
  status: EidOrderStatus;
  /** Present for PENDING and FAILED orders. */
  hintCode: HintCode | null;
  startedAt: Date;
  finishedAt: Date | null;
  /** When a poll first answered it COMPLETE or FAILED (null: no poll has reported it final yet). */
  finalReportedAt: Date | null;
  /** The current dynamic QR string while the order is open (app orders only), else null. */
  qrString: string | null;
}

/**
 * Where another lib keeps an order's id: a scalar subquery on its own table that selects it, scoped
 * like every statement (`sandbox_id = $1`), its parameters numbered from `$2`. The engine reads the
 * order through it in one statement (a poll that would otherwise first read the caller's row).
 */
export interface EidOrderReference {
  readonly idQuery: string;
  readonly parameters: readonly unknown[];
}

/** The order as just started: the only time its autostart token is known (it is stored hashed). */
export interface StartedEidOrder extends EidOrder {
  autostartToken: string;
}

/** Whether the order can still change: INITIATED or PENDING (contract §4). */
export function isOpenOrder(order: Pick<EidOrder, 'status'>): boolean {
  return isOpenStatus(order.status);
}

/** The hint code as the bank's status answers show it: for PENDING and FAILED orders only (bank §2.5, §3.2). */
export function shownHintCode(order: Pick<EidOrder, 'status' | 'hintCode'>): HintCode | undefined {
  return order.hintCode !== null && (order.status === 'PENDING' || order.status === 'FAILED') ? order.hintCode : undefined;
}
