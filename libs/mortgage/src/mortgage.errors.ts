import { InvalidState, NotFound } from '@app/common';

export class UnknownPreApproval extends NotFound {
  constructor(id: string) {
    super(`No pre-approval ${id} of this partner.`);
  }
}

export class UnknownLoanApplication extends NotFound {
  constructor(id: string) {
    super(`No loan application ${id} of this partner.`);
  }
}

export class WrongMortgageState extends InvalidState {
  constructor(what: string, status: string, needs: string) {
    super(`The ${what} is ${status}; this needs ${needs}.`);
  }
}
