import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ACCOUNT_NUMBER, CURRENCY, MAX_AMOUNT, MONEY, PERSONAL_NUMBER, IsDecimalNumber, QueryNumber } from '@app/common';
import { IsBoolean, IsIn, IsInt, IsISO4217CurrencyCode, IsOptional, IsString, Matches, Max, MaxLength, Min, MinLength } from 'class-validator';
import { CREDIT_DECISIONS, type CreditDecision } from '@app/directory';
import { EID_BEHAVIOURS, type EidBehaviour } from '@app/eid';
import { AccountDto } from '@app/savings';

/** PUT /admin/users/{personal_number} (contract §8). Omitted optionals take their defaults. */
export class PutUserDto {
  @ApiProperty({ example: 'Tolvan Tolvansson', maxLength: 200 })
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  name: string;

  @ApiProperty({ description: 'Has answered the know-your-customer questions; without it every token grant is 403 kyc_required.' })
  @IsBoolean()
  kyc_completed: boolean;

  @ApiPropertyOptional({
    enum: EID_BEHAVIOURS,
    default: 'AUTO_COMPLETE',
    description: 'How the simulated identity app answers for this user (contract §4).',
  })
  @IsOptional()
  @IsIn(EID_BEHAVIOURS, {
    message: `eid_behaviour must be AUTO_COMPLETE, MANUAL, NO_RESPONSE, COLLECT_ERROR or FAIL:<a FAILED hint of bank §3.2>`,
  })
  eid_behaviour?: EidBehaviour;

  @ApiPropertyOptional({ default: false, description: 'A signing is open with another bank: partner signing starts are 409.' })
  @IsOptional()
  @IsBoolean()
  busy_elsewhere?: boolean;

  @ApiPropertyOptional({ enum: CREDIT_DECISIONS, description: 'Forces the outcome of mortgage credit decisions.' })
  @IsOptional()
  @IsIn(CREDIT_DECISIONS)
  credit_decision?: CreditDecision;
}

/** POST /admin/users/{personal_number}/accounts (contract §8). */
export class OpenAccountDto {
  @ApiProperty({ example: 'Lönekonto', maxLength: 200 })
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  name: string;

  @ApiProperty(CURRENCY)
  // Capital letters only: the code is kept and compared as written (the funds check and transfers take SEK, not sek).
  @IsISO4217CurrencyCode({ message: 'currency must be an ISO 4217 currency code in capital letters, such as SEK' })
  @Matches(/^[A-Z]{3}$/, { message: 'currency must be an ISO 4217 currency code in capital letters, such as SEK' })
  currency: string;

  @ApiProperty({ ...MONEY, example: 25000.5, minimum: 0, maximum: MAX_AMOUNT, multipleOf: 0.01, description: 'At most two decimals, at most 10 000 000 000 000; kept exact.' })
  @IsDecimalNumber(2, { message: 'balance must be a number with at most two decimals' })
  @Min(0)
  @Max(MAX_AMOUNT)
  balance: number;

  @ApiPropertyOptional({ ...ACCOUNT_NUMBER, description: 'Clearing and account number, digits only; generated when absent.' })
  @IsOptional()
  @Matches(/^\d{8,15}$/, { message: 'account_number must be 8 to 15 digits (clearing number and account number, no separators)' })
  account_number?: string;
}

/** A user's settings as the admin API answers them (contract §4). */
export class UserSettingsDto {
  @ApiProperty(PERSONAL_NUMBER)
  personal_number: string;

  @ApiProperty()
  name: string;

  @ApiProperty()
  kyc_completed: boolean;

  @ApiProperty({ enum: EID_BEHAVIOURS })
  eid_behaviour: EidBehaviour;

  @ApiProperty()
  busy_elsewhere: boolean;

  @ApiPropertyOptional({ enum: CREDIT_DECISIONS, description: 'Omitted when not set.' })
  credit_decision?: CreditDecision;
}

export class UserResponseDto extends UserSettingsDto {
  @ApiProperty({ type: [AccountDto] })
  accounts: AccountDto[];
}

export const MAX_USERS_PAGE = 500;

/** GET /admin/users: one page in personal-number order. */
export class ListUsersQueryDto {
  @ApiPropertyOptional({ default: 100, minimum: 1, maximum: MAX_USERS_PAGE, description: 'Users per page' })
  @IsOptional()
  @QueryNumber()
  @IsInt({ message: `limit must be a whole number from 1 to ${MAX_USERS_PAGE}` })
  @Min(1, { message: `limit must be a whole number from 1 to ${MAX_USERS_PAGE}` })
  @Max(MAX_USERS_PAGE, { message: `limit must be a whole number from 1 to ${MAX_USERS_PAGE}` })
  limit?: number;

  @ApiPropertyOptional({ ...PERSONAL_NUMBER, description: 'Start after this personal number (12 digits): the `next_after` of the previous page' })
  @IsOptional()
  @Matches(/^\d{12}$/, { message: 'after must be a 12-digit personal number (the next_after of the previous page)' })
  after?: string;
}

/** A user in a listing: the settings and how many accounts it has. */
export class UserSummaryDto extends UserSettingsDto {
  @ApiProperty({ example: 2 })
  account_count: number;
}

export class UserListDto {
  @ApiProperty({ type: [UserSummaryDto] })
  users: UserSummaryDto[];

  @ApiPropertyOptional({ ...PERSONAL_NUMBER, example: '198112189876', description: 'More users follow: pass this as `after` for the next page. Omitted on the last page.' })
  next_after?: string;
}
