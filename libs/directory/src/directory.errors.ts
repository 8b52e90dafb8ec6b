import { DomainError, NotFound } from '@app/common';

export class UnknownUser extends NotFound {
  constructor(personalNumber: string) {
    super(`No sandbox user has the personal number ${personalNumber}.`);
  }
}

export class PartnerKeyTaken extends DomainError {
  constructor() {
    super('CONFLICT', 'Another partner already has this api_key; choose another or omit it to get a random one.');
  }
}
