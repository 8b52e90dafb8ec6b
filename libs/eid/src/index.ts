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
