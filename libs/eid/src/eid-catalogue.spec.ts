import { EID_BEHAVIOURS, failureHintOf, FAILED_HINT_CODES, isEidBehaviour } from './eid-catalogue';

describe('eid catalogue (contract §4, bank §3.2)', () => {
  it('accepts the four simple behaviours and FAIL:<hint> for every FAILED hint of §3.2', () => {
    for (const behaviour of ['AUTO_COMPLETE', 'MANUAL', 'NO_RESPONSE', 'COLLECT_ERROR']) {
      expect(isEidBehaviour(behaviour)).toBe(true);
    }
    for (const hint of FAILED_HINT_CODES) expect(isEidBehaviour(`FAIL:${hint}`)).toBe(true);
    expect(EID_BEHAVIOURS).toHaveLength(4 + FAILED_HINT_CODES.length);
  });

  it('refuses FAIL with a PENDING-only hint, an unknown hint, or another word', () => {
    for (const bad of ['FAIL:USER_SIGN', 'FAIL:NOT_A_HINT', 'FAIL:', 'SOMETIMES', 'auto_complete', 42, null]) {
      expect(isEidBehaviour(bad)).toBe(false);
    }
  });

  it('tells the hint of a FAIL behaviour', () => {
    expect(failureHintOf('FAIL:USER_CANCEL')).toBe('USER_CANCEL');
    expect(failureHintOf('MANUAL')).toBeNull();
  });
});
