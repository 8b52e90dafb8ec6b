import { defineLifecycle } from '@app/common';

/** Pre-approval lifecycle (bank §3.3; contract §9), one table. */
export const PRE_APPROVAL_STATUSES = [
  'OFFER_GENERATED',
  'AWAITING_ACCEPTANCE',
  'SIGNING_ONGOING',
  'PROCESSING',
  'APPROVED',
  'REJECTED',
  'EXPIRED',
] as const;
export type PreApprovalStatus = (typeof PRE_APPROVAL_STATUSES)[number];

export const PRE_APPROVAL_LIFECYCLE = defineLifecycle(PRE_APPROVAL_STATUSES, {
  OFFER_GENERATED: ['AWAITING_ACCEPTANCE', 'EXPIRED'],
  // With one applicant, the first signature moves straight to PROCESSING.
  AWAITING_ACCEPTANCE: ['SIGNING_ONGOING', 'PROCESSING', 'EXPIRED'],
  SIGNING_ONGOING: ['PROCESSING', 'EXPIRED'],
  PROCESSING: ['APPROVED', 'REJECTED'],
  APPROVED: [],
  REJECTED: [],
  EXPIRED: [],
});

/** Contract §9: 30 days after creation, fixed; what has not reached PROCESSING by then is EXPIRED. */
export const PRE_APPROVAL_VALIDITY_DAYS = 30;

/** Contract §9: debt above 5.5 times the applicants' summed yearly income is REJECTED; exactly 5.5 is APPROVED. */
export const MAX_DEBT_TO_INCOME = 5.5;
