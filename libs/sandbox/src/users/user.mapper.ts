import type { SandboxUser } from '@app/directory';
import { type Account, toAccountDto } from '@app/savings';
import type { UserResponseDto, UserSettingsDto, UserSummaryDto } from './user.dto';

function toUserSettings(user: SandboxUser): UserSettingsDto {
  return {
    personal_number: user.personalNumber,
    name: user.name,
    kyc_completed: user.kycCompleted,
    eid_behaviour: user.eidBehaviour,
    busy_elsewhere: user.busyElsewhere,
    ...(user.creditDecision ? { credit_decision: user.creditDecision } : {}),
  };
}

export function toUserResponse(user: SandboxUser, accounts: Account[]): UserResponseDto {
  return { ...toUserSettings(user), accounts: accounts.map(toAccountDto) };
}

export function toUserSummary(user: SandboxUser, accountCount: number): UserSummaryDto {
  return { ...toUserSettings(user), account_count: accountCount };
}
