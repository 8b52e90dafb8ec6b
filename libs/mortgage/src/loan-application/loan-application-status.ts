import { defineLifecycle } from '@app/common';

/**
 * Loan application 2.0 lifecycle, one table (bank §9 rule 6 names the routes; the states are ours):
 * signed by the main applicant (bank §3.3) it is submitted for PROCESSING, then decided like a
 * pre-approval; the partner may withdraw it (DELETE) until it is decided.
 */
export const LOAN_APPLICATION_STATUSES = ['AWAITING_SIGNATURE', 'PROCESSING', 'APPROVED', 'REJECTED', 'WITHDRAWN'] as const;
export type LoanApplicationStatus = (typeof LOAN_APPLICATION_STATUSES)[number];

export const LOAN_APPLICATION_LIFECYCLE = defineLifecycle(LOAN_APPLICATION_STATUSES, {
  AWAITING_SIGNATURE: ['PROCESSING', 'WITHDRAWN'],
  PROCESSING: ['APPROVED', 'REJECTED', 'WITHDRAWN'],
  APPROVED: [],
  REJECTED: [],
  WITHDRAWN: [],
});

/** Supplementary documents can be sent until the application is decided or withdrawn. */
export const ACCEPTS_DOCUMENTS: readonly LoanApplicationStatus[] = ['AWAITING_SIGNATURE', 'PROCESSING'];

export const DOCUMENT_TYPES = ['EMPLOYMENT_CERTIFICATE', 'PAYSLIP', 'PROPERTY_VALUATION', 'PURCHASE_AGREEMENT', 'OTHER'] as const;
export const DOCUMENT_CONTENT_TYPES = ['application/pdf', 'image/jpeg', 'image/png'] as const;
