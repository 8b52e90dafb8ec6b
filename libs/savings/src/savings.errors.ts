import { DomainError, InvalidState, NotFound } from '@app/common';

export class AccountNumberTaken extends DomainError {
  constructor(accountNumber: string) {
    super('CONFLICT', `The account number ${accountNumber} is already in use.`);
  }
}

export class UnknownAccount extends NotFound {
  constructor(accountNumber: string) {
    super(`No account ${accountNumber} belongs to this user.`);
  }
}

export class UnknownTransfer extends NotFound {
  constructor(referenceId: string) {
    super(`No transfer ${referenceId} of this TPP and user on this account.`);
  }
}

export class UnknownSigning extends NotFound {
  constructor(signingId: string) {
    super(`No transfer signing ${signingId} of this TPP and user.`);
  }
}

export class TransferNotDeletable extends InvalidState {
  constructor(referenceId: string, status: string) {
    super(`The transfer ${referenceId} is ${status} and can no longer be deleted.`);
  }
}

export class NotSignable extends InvalidState {
  constructor(referenceId: string, status: string) {
    super(`The transfer ${referenceId} is ${status}; only transfers AWAITING_SIGNATURE can be signed.`);
  }
}
