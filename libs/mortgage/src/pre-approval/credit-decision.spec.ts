import { decideCredit } from './credit-decision';
import { PRE_APPROVAL_LIFECYCLE, PRE_APPROVAL_STATUSES } from './pre-approval-status';

describe('credit decision (contract §9)', () => {
  it('approves a debt of exactly 5.5 times the summed income, rejects one öre-free krona more', () => {
    expect(decideCredit({ debt: 5_500_000, incomes: [600_000, 400_000], forced: [null, null] })).toBe('APPROVED');
    expect(decideCredit({ debt: 5_500_001, incomes: [600_000, 400_000], forced: [null, null] })).toBe('REJECTED');
  });

  it('a forced REJECTED wins over everything; a forced APPROVED over the income rule', () => {
    expect(decideCredit({ debt: 1, incomes: [1_000_000], forced: ['REJECTED'] })).toBe('REJECTED');
    expect(decideCredit({ debt: 1, incomes: [1_000_000, 1_000_000], forced: ['APPROVED', 'REJECTED'] })).toBe('REJECTED');
    expect(decideCredit({ debt: 99_000_000, incomes: [1], forced: [null, 'APPROVED'] })).toBe('APPROVED');
  });
});

describe('pre-approval lifecycle (bank §3.3)', () => {
  it('signing moves AWAITING_ACCEPTANCE to SIGNING_ONGOING or straight to PROCESSING; only PROCESSING is decided', () => {
    expect(PRE_APPROVAL_LIFECYCLE.canMove('AWAITING_ACCEPTANCE', 'PROCESSING')).toBe(true);
    expect(PRE_APPROVAL_LIFECYCLE.before('APPROVED')).toEqual(['PROCESSING']);
    expect(PRE_APPROVAL_LIFECYCLE.before('EXPIRED')).toEqual(['OFFER_GENERATED', 'AWAITING_ACCEPTANCE', 'SIGNING_ONGOING']);
    for (const final of ['APPROVED', 'REJECTED', 'EXPIRED'] as const) {
      expect(PRE_APPROVAL_STATUSES.filter((to) => PRE_APPROVAL_LIFECYCLE.canMove(final, to))).toEqual([]);
    }
  });
});
