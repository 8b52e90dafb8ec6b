import { decimalToJsonNumber } from '@app/common';
import type { SandboxUser } from '@app/directory';
import type { Account } from '@app/savings';
import { AccountResponseDto, UserResponseDto } from './user.dto';

export function toAccountResponse(account: Account): AccountResponseDto {
  return {
    account_number: account.accountNumber,
    name: account.name,
    currency: account.currency,
    balance: decimalToJsonNumber(account.balance),
    available_balance: decimalToJsonNumber(account.availableBalance),
  };
}

export function toUserResponse(user: SandboxUser, accounts: Account[]): UserResponseDto {
  return {
    personal_number: user.personalNumber,
    name: user.name,
    kyc_completed: user.kycCompleted,
    eid_behaviour: user.eidBehaviour,
    busy_elsewhere: user.busyElsewhere,
    ...(user.creditDecision ? { credit_decision: user.creditDecision } : {}),
    accounts: accounts.map(toAccountResponse),
  };
}
