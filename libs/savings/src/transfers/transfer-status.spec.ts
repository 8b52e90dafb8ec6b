import { describeLifecycle } from '../../../../test/support/lifecycle-table';
import { RECURRING_LIFECYCLE, TRANSFER_LIFECYCLE } from './transfer-status';

describe('transfer lifecycles (contract §10)', () => {
  it('a transfer is signed, then executed or rejected; deletable until it is executed', () => {
    expect(TRANSFER_LIFECYCLE.canMove('AWAITING_SIGNATURE', 'SIGNED')).toBe(true);
    expect(TRANSFER_LIFECYCLE.canMove('SIGNED', 'EXECUTED')).toBe(true);
    expect(TRANSFER_LIFECYCLE.canMove('SIGNED', 'REJECTED')).toBe(true);
    expect(TRANSFER_LIFECYCLE.canMove('AWAITING_SIGNATURE', 'EXECUTED')).toBe(false);
    expect(TRANSFER_LIFECYCLE.before('DELETED')).toEqual(['AWAITING_SIGNATURE', 'SIGNED']);
    for (const final of ['EXECUTED', 'REJECTED', 'DELETED'] as const) {
      expect(TRANSFER_LIFECYCLE.before('DELETED')).not.toContain(final);
    }
  });

  it('a recurring transfer becomes ACTIVE when signed, then ENDED or DELETED', () => {
    expect(RECURRING_LIFECYCLE.canMove('AWAITING_SIGNATURE', 'ACTIVE')).toBe(true);
    expect(RECURRING_LIFECYCLE.canMove('ACTIVE', 'ENDED')).toBe(true);
    expect(RECURRING_LIFECYCLE.canMove('ENDED', 'ACTIVE')).toBe(false);
    expect(RECURRING_LIFECYCLE.before('DELETED')).toEqual(['AWAITING_SIGNATURE', 'ACTIVE']);
  });
});

describeLifecycle('transfer', 'contract §10', TRANSFER_LIFECYCLE, [
  'AWAITING_SIGNATURE → SIGNED', // signed with eid (bank §4.2 rule 3)
  'SIGNED → EXECUTED',
  'SIGNED → REJECTED', // e.g. INSUFFICIENT_FUNDS at execution
  'AWAITING_SIGNATURE → DELETED', // deletable until it executes
  'SIGNED → DELETED',
]);

describeLifecycle('recurring transfer', 'contract §10', RECURRING_LIFECYCLE, [
  'AWAITING_SIGNATURE → ACTIVE',
  'ACTIVE → ENDED',
  'AWAITING_SIGNATURE → DELETED',
  'ACTIVE → DELETED', // stops its future occurrences
]);
