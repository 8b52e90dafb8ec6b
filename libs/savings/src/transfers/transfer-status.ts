/** Transfer lifecycle (contract §10), one table. */
export const TRANSFER_STATUSES = ['AWAITING_SIGNATURE', 'SIGNED', 'EXECUTED', 'REJECTED', 'DELETED'] as const;
export type TransferStatus = (typeof TRANSFER_STATUSES)[number];

const NEXT: Record<TransferStatus, readonly TransferStatus[]> = {
  AWAITING_SIGNATURE: ['SIGNED', 'DELETED'],
  SIGNED: ['EXECUTED', 'REJECTED', 'DELETED'],
  EXECUTED: [],
  REJECTED: [],
  DELETED: [],
};

export const canMoveTransfer = (from: TransferStatus, to: TransferStatus): boolean => NEXT[from].includes(to);

/** The statuses a transfer may be in for a move to `to` (for conditional updates). */
export const transferStatusesBefore = (to: TransferStatus): TransferStatus[] => TRANSFER_STATUSES.filter((from) => canMoveTransfer(from, to));

/** Why execution refused a transfer (contract §10 `rejection_reason`, bank §4.2 rule 2). */
export const REJECTION_REASONS = ['INSUFFICIENT_FUNDS'] as const;
export type RejectionReason = (typeof REJECTION_REASONS)[number];

/** Recurring transfer lifecycle (contract §10), one table. */
export const RECURRING_STATUSES = ['AWAITING_SIGNATURE', 'ACTIVE', 'ENDED', 'DELETED'] as const;
export type RecurringStatus = (typeof RECURRING_STATUSES)[number];

const NEXT_RECURRING: Record<RecurringStatus, readonly RecurringStatus[]> = {
  AWAITING_SIGNATURE: ['ACTIVE', 'DELETED'],
  ACTIVE: ['ENDED', 'DELETED'],
  ENDED: [],
  DELETED: [],
};

export const canMoveRecurring = (from: RecurringStatus, to: RecurringStatus): boolean => NEXT_RECURRING[from].includes(to);

export const recurringStatusesBefore = (to: RecurringStatus): RecurringStatus[] =>
  RECURRING_STATUSES.filter((from) => canMoveRecurring(from, to));
