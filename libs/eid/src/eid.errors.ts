import { DomainError, InvalidState, NotFound } from '@app/common';

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
