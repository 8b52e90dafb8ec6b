import type { SandboxUser } from '@app/directory';
import { type Account, toAccountDto } from '@app/savings';
import { UserResponseDto, UserSummaryDto } from './user.dto';

export function toUserResponse(user: SandboxUser, accounts: Account[]): UserResponseDto {
  return {
    personal_number: user.personalNumber,
    name: user.name,
    kyc_completed: user.kycCompleted,
    eid_behaviour: user.eidBehaviour,
    busy_elsewhere: user.busyElsewhere,
    ...(user.creditDecision ? { credit_decision: user.creditDecision } : {}),
    accounts: accounts.map(toAccountDto),
  };
}

export function toUserSummary(user: SandboxUser, accountCount: number): UserSummaryDto {
  return {
    personal_number: user.personalNumber,
    name: user.name,
    kyc_completed: user.kycCompleted,
    eid_behaviour: user.eidBehaviour,
    busy_elsewhere: user.busyElsewhere,
    ...(user.creditDecision ? { credit_decision: user.creditDecision } : {}),
    account_count: accountCount,
  };
}
