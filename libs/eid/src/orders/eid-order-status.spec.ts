import { canMove, EID_ORDER_STATUSES, isOpenStatus } from './eid-order-status';

describe('eid order lifecycle table', () => {
  it('lets open orders finish and finished orders never move (contract §4: a finished order keeps its final state)', () => {
    for (const from of EID_ORDER_STATUSES) {
      for (const to of EID_ORDER_STATUSES) {
        const expected = isOpenStatus(from) && to !== from && !(from === 'PENDING' && to === 'INITIATED');
        expect({ from, to, allowed: canMove(from, to) }).toEqual({ from, to, allowed: expected });
      }
    }
  });
});
