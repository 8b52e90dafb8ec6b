import type { HintCode } from '../eid-catalogue';
import type { CallInitiator, EidChannel, EidOrderKind, EidOrderStatus } from './eid-order-status';

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
  /** The current dynamic QR string while the order is open (app orders only), else null. */
  qrString: string | null;
}

/** The order as just started: the only time its autostart token is known (it is stored hashed). */
export interface StartedEidOrder extends EidOrder {
  autostartToken: string;
}
