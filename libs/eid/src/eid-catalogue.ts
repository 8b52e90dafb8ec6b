/**
 * The catalogue of the simulated identity service: its hint codes (bank §3.2, §7.3) and the per-user
 * behaviours of contract §4. The engine (orders, time rules, QR strings) builds on this.
 */

/** PENDING hint codes of bank §3.2. */
export const PENDING_HINT_CODES = [
  'OUTSTANDING_TRANSACTION',
  'NO_CLIENT',
  'STARTED',
  'USER_SIGN',
  'USER_MRTD',
  'USER_CALL_CONFIRM',
  'UNKNOWN',
] as const;
export type PendingHintCode = (typeof PENDING_HINT_CODES)[number];

/** FAILED hint codes of bank §3.2. */
export const FAILED_HINT_CODES = [
  'EXPIRED_TRANSACTION',
  'CERTIFICATE_ERR',
  'USER_CANCEL',
  'CANCELLED',
  'START_FAILED',
  'USER_DECLINED_CALL',
  'NOT_SUPPORTED_BY_USER_APP',
  'UNKNOWN',
] as const;
export type FailedHintCode = (typeof FAILED_HINT_CODES)[number];

export type HintCode = PendingHintCode | FailedHintCode;

/** Behaviours without a parameter (contract §4). */
export const SIMPLE_EID_BEHAVIOURS = ['AUTO_COMPLETE', 'MANUAL', 'NO_RESPONSE', 'COLLECT_ERROR'] as const;
export type SimpleEidBehaviour = (typeof SIMPLE_EID_BEHAVIOURS)[number];

/** `FAIL:<HINT>`: the first status or collect answers FAILED with that FAILED hint. */
export type FailEidBehaviour = `FAIL:${FailedHintCode}`;
export type EidBehaviour = SimpleEidBehaviour | FailEidBehaviour;

export const DEFAULT_EID_BEHAVIOUR: EidBehaviour = 'AUTO_COMPLETE';

/** Every accepted value, for documentation and validation messages. */
export const EID_BEHAVIOURS: readonly EidBehaviour[] = [
  ...SIMPLE_EID_BEHAVIOURS,
  ...FAILED_HINT_CODES.map((hint) => `FAIL:${hint}` as const),
];

export function isEidBehaviour(value: unknown): value is EidBehaviour {
  return typeof value === 'string' && (EID_BEHAVIOURS as readonly string[]).includes(value);
}

/** The hint a `FAIL:<HINT>` behaviour answers with, or null for the other behaviours. */
export function failureHintOf(behaviour: EidBehaviour): FailedHintCode | null {
  return behaviour.startsWith('FAIL:') ? (behaviour.slice('FAIL:'.length) as FailedHintCode) : null;
}
