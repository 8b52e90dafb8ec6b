export { EidModule } from './eid.module';
export {
  PENDING_HINT_CODES,
  FAILED_HINT_CODES,
  SIMPLE_EID_BEHAVIOURS,
  EID_BEHAVIOURS,
  DEFAULT_EID_BEHAVIOUR,
  isEidBehaviour,
  failureHintOf,
} from './eid-catalogue';
export type { PendingHintCode, FailedHintCode, HintCode, EidBehaviour, FailEidBehaviour } from './eid-catalogue';
export { EidUserDirectory } from './eid-user-directory';
export type { EidUserCard } from './eid-user-directory';
export { EidOrderService } from './orders/eid-order.service';
export { eidOrdersOf } from './orders/eid-order.repository';
export { EidOrderCompletions } from './orders/eid-order-completions';
export type { EidOrderCompletedListener } from './orders/eid-order-completions';
export { EID_ORDER_CONTENDED } from './eid.errors';
export { isOpenOrder, shownHintCode } from './orders/eid-order';
export type { EidOrder, EidOrderReference, StartedEidOrder } from './orders/eid-order';
export { EID_ORDER_STATUSES, EID_ORDER_KINDS, EID_CHANNELS, OPEN_STATUSES, CALL_INITIATORS, ACTIVATION_LIMIT_S, ORDER_LIFETIME_S } from './orders/eid-order-status';
export type { EidOrderStatus, EidOrderKind, EidChannel, CallInitiator } from './orders/eid-order-status';
