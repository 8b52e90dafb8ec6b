import { defineLifecycle } from '@app/common';

/** Transfer lifecycle (contract §10), one table. */
export const TRANSFER_STATUSES = ['AWAITING_SIGNATURE', 'SIGNED', 'EXECUTED', 'REJECTED', 'DELETED'] as const;
export type TransferStatus = (typeof TRANSFER_STATUSES)[number];

export const TRANSFER_LIFECYCLE = defineLifecycle(TRANSFER_STATUSES, {
  AWAITING_SIGNATURE: ['SIGNED', 'DELETED'],
  SIGNED: ['EXECUTED', 'REJECTED', 'DELETED'],
  EXECUTED: [],
  REJECTED: [],
  DELETED: [],
});

/**
 * Why execution refused a transfer (contract §10 `rejection_reason`, bank §4.2 rule 2): the balance
 * did not cover it, or it was signed after its transfer date (Stockholm), too late to pay on that date.
 */
export const REJECTION_REASONS = ['INSUFFICIENT_FUNDS', 'TRANSFER_DATE_PASSED'] as const;
export type RejectionReason = (typeof REJECTION_REASONS)[number];

/** Recurring transfer lifecycle (contract §10), one table. */
export const RECURRING_STATUSES = ['AWAITING_SIGNATURE', 'ACTIVE', 'ENDED', 'DELETED'] as const;
export type RecurringStatus = (typeof RECURRING_STATUSES)[number];

export const RECURRING_LIFECYCLE = defineLifecycle(RECURRING_STATUSES, {
  AWAITING_SIGNATURE: ['ACTIVE', 'DELETED'],
  ACTIVE: ['ENDED', 'DELETED'],
  ENDED: [],
  DELETED: [],
});
