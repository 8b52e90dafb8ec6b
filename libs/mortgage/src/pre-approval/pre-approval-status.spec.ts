import { describeLifecycle } from '../../../../test/support/lifecycle-table';
import { PRE_APPROVAL_LIFECYCLE } from './pre-approval-status';

describeLifecycle('pre-approval', 'bank §3.3, contract §9', PRE_APPROVAL_LIFECYCLE, [
  'OFFER_GENERATED → AWAITING_ACCEPTANCE', // a variant is accepted
  'AWAITING_ACCEPTANCE → SIGNING_ONGOING', // some applicants have signed, not all
  'AWAITING_ACCEPTANCE → PROCESSING', // the only applicant signed
  'SIGNING_ONGOING → PROCESSING', // every applicant has signed
  'PROCESSING → APPROVED',
  'PROCESSING → REJECTED',
  // Contract §9: what has not reached PROCESSING by its expiry_date is EXPIRED.
  'OFFER_GENERATED → EXPIRED',
  'AWAITING_ACCEPTANCE → EXPIRED',
  'SIGNING_ONGOING → EXPIRED',
]);
