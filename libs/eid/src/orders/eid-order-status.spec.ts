import { describeLifecycle } from '../../../../test/support/lifecycle-table';
import { EID_ORDER_LIFECYCLE, EID_ORDER_STATUSES, isOpenStatus } from './eid-order-status';

describe('eid order lifecycle table', () => {
  it('lets open orders finish and finished orders never move (contract §4: a finished order keeps its final state)', () => {
    for (const from of EID_ORDER_STATUSES) {
      for (const to of EID_ORDER_STATUSES) {
        const expected = isOpenStatus(from) && to !== from && !(from === 'PENDING' && to === 'INITIATED');
        expect({ from, to, allowed: EID_ORDER_LIFECYCLE.canMove(from, to) }).toEqual({ from, to, allowed: expected });
      }
    }
  });
});

describeLifecycle('eid order', 'bank §4.4, contract §4', EID_ORDER_LIFECYCLE, [
  'INITIATED → PENDING', // the app picks up a phone order
  'INITIATED → COMPLETE',
  'INITIATED → FAILED', // e.g. USER_DECLINED_CALL
  'INITIATED → COLLECT_ERROR',
  'PENDING → COMPLETE',
  'PENDING → FAILED',
  'PENDING → COLLECT_ERROR', // the COLLECT_ERROR behaviour of signings
]);
