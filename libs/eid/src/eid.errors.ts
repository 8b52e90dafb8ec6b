import { DomainError, InvalidState, NotFound, type ProblemExample } from '@app/common';

/** Acting on an order that is no longer open, or in a way its channel does not allow (contract §4). */
export class InvalidEidTransition extends InvalidState {
  constructor(orderId: string, why: string) {
    super(`The eid order ${orderId} ${why}.`);
  }
}

export class UnknownEidOrder extends NotFound {
  constructor(what = 'No eid order matches this token or operation id.') {
    super(what);
  }
}

export class NotTheOrderSubject extends DomainError {
  constructor() {
    super('FORBIDDEN', 'Only the person the signing is for can open it.');
  }
}

/**
 * Every optimistic save of an order lost to concurrent requests: the change was not made, so the
 * caller is told to retry (503 with Retry-After) rather than shown a state the row does not hold.
 */
export class EidOrderContended extends DomainError {
  constructor(orderId: string) {
    super('CONCURRENT_CHANGES', `The eid order ${orderId} kept changing under concurrent requests; try again.`, { 'Retry-After': '1' });
  }
}

/** How `EidOrderContended` is documented on every route that changes an eid order (contract §1). */
export const EID_ORDER_CONTENDED: ProblemExample = {
  status: 503,
  code: 'CONCURRENT_CHANGES',
  description: 'Concurrent requests kept changing the same eid order, so this one changed nothing; retry after Retry-After (1 s)',
  message: 'The eid order 0b4bd1a4-8f5e-4bb5-9a57-2f5c3e9c6d11 kept changing under concurrent requests; try again.',
};
