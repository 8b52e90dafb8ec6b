import { defineLifecycle } from '@app/common';

/**
 * The lifecycle of an eid order, one table. INITIATED exists only for phone orders before the app
 * picks them up; COLLECT_ERROR only for signings whose user has the COLLECT_ERROR behaviour.
 */
export const EID_ORDER_STATUSES = ['INITIATED', 'PENDING', 'COMPLETE', 'FAILED', 'COLLECT_ERROR'] as const;
export type EidOrderStatus = (typeof EID_ORDER_STATUSES)[number];

export const EID_ORDER_LIFECYCLE = defineLifecycle(EID_ORDER_STATUSES, {
  INITIATED: ['PENDING', 'COMPLETE', 'FAILED', 'COLLECT_ERROR'],
  PENDING: ['COMPLETE', 'FAILED', 'COLLECT_ERROR'],
  COMPLETE: [],
  FAILED: [],
  COLLECT_ERROR: [],
});

/** Open orders can still change; the others keep their final state (contract §4). */
export const OPEN_STATUSES: readonly EidOrderStatus[] = ['INITIATED', 'PENDING'];
export const isOpenStatus = (status: EidOrderStatus): boolean => OPEN_STATUSES.includes(status);

export const EID_ORDER_KINDS = ['authentication', 'signing'] as const;
export type EidOrderKind = (typeof EID_ORDER_KINDS)[number];

/** `app`: started by autostart token or QR code; `phone`: started during a call (bank §4.4). */
export const EID_CHANNELS = ['app', 'phone'] as const;
export type EidChannel = (typeof EID_CHANNELS)[number];

export const CALL_INITIATORS = ['RP', 'USER'] as const;
export type CallInitiator = (typeof CALL_INITIATORS)[number];

/** Contract §4: the app must open within 30 s of start, the order finish within 3 minutes. */
export const ACTIVATION_LIMIT_S = 30;
export const ORDER_LIFETIME_S = 180;
/** Contract §4: a QR string is accepted by the simulator while its t is within 5 s of now. */
export const QR_ACCEPT_WINDOW_S = 5;
