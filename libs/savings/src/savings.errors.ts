import { DomainError } from '@app/common';

export class AccountNumberTaken extends DomainError {
  constructor(accountNumber: string) {
    super('CONFLICT', `The account number ${accountNumber} is already in use.`);
  }
}
