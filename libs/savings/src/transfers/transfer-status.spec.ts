import { canMoveRecurring, canMoveTransfer, recurringStatusesBefore, transferStatusesBefore } from './transfer-status';

describe('transfer lifecycles (contract §10)', () => {
  it('a transfer is signed, then executed or rejected; deletable until it is executed', () => {
    expect(canMoveTransfer('AWAITING_SIGNATURE', 'SIGNED')).toBe(true);
    expect(canMoveTransfer('SIGNED', 'EXECUTED')).toBe(true);
    expect(canMoveTransfer('SIGNED', 'REJECTED')).toBe(true);
    expect(canMoveTransfer('AWAITING_SIGNATURE', 'EXECUTED')).toBe(false);
    expect(transferStatusesBefore('DELETED')).toEqual(['AWAITING_SIGNATURE', 'SIGNED']);
    for (const final of ['EXECUTED', 'REJECTED', 'DELETED'] as const) {
      expect(transferStatusesBefore('DELETED')).not.toContain(final);
    }
  });

  it('a recurring transfer becomes ACTIVE when signed, then ENDED or DELETED', () => {
    expect(canMoveRecurring('AWAITING_SIGNATURE', 'ACTIVE')).toBe(true);
    expect(canMoveRecurring('ACTIVE', 'ENDED')).toBe(true);
    expect(canMoveRecurring('ENDED', 'ACTIVE')).toBe(false);
    expect(recurringStatusesBefore('DELETED')).toEqual(['AWAITING_SIGNATURE', 'ACTIVE']);
  });
});
