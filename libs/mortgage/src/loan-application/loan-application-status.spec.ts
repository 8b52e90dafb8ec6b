import { describeLifecycle } from '../../../../test/support/lifecycle-table';
import { LOAN_APPLICATION_LIFECYCLE } from './loan-application-status';

describeLifecycle('loan application', 'bank §3.3, §9 rule 6', LOAN_APPLICATION_LIFECYCLE, [
  'AWAITING_SIGNATURE → PROCESSING', // the main applicant signed
  'PROCESSING → APPROVED',
  'PROCESSING → REJECTED',
  // The partner may withdraw it until it is decided.
  'AWAITING_SIGNATURE → WITHDRAWN',
  'PROCESSING → WITHDRAWN',
]);
