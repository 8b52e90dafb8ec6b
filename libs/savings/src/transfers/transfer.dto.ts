import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ACCOUNT_NUMBER, CALENDAR_DATE, CURRENCY, MAX_AMOUNT, MONEY, IsDecimalNumber, parseCalendarDate, toMinorUnits } from '@app/common';
import { IsIn, IsOptional, IsString, Matches, Max, MaxLength, MinLength, ValidateBy, type ValidationOptions } from 'class-validator';
import { FREQUENCIES, type Frequency } from '../recurring/schedule';
import { REJECTION_REASONS, RECURRING_STATUSES, type RecurringStatus, TRANSFER_STATUSES, type TransferStatus } from './transfer-status';
import { isLatin1, recipientKind, TEXT_LIMITS } from './transfer-rules';

const Latin1 = (options?: ValidationOptions) =>
  ValidateBy({ name: 'isLatin1', validator: { validate: (v) => typeof v === 'string' && isLatin1(v), defaultMessage: (a) => `${a?.property} must contain ISO 8859-1 characters only` } }, options);

const Recipient = (options?: ValidationOptions) =>
  ValidateBy(
    {
      name: 'isRecipient',
      validator: {
        validate: (v) => typeof v === 'string' && recipientKind(v) !== null,
        defaultMessage: () => 'recipient_account_number must be an account number (clearing and account number, digits only) or a bankgiro number NNN-NNNN / NNNN-NNNN with a valid check digit',
      },
    },
    options,
  );

/**
 * Rules of the value alone, checked with the rest of the input: before the Idempotency-Key is
 * looked at (contract §15, §1), so a malformed retry is 400 whatever the key.
 */
// Each passes what another rule of its field refuses (not a number, not YYYY-MM-DD), so a value
// gets one message.
const PositiveAmount = (options?: ValidationOptions) =>
  ValidateBy({ name: 'isPositiveAmount', validator: { validate: (v) => typeof v !== 'number' || (toMinorUnits(v) ?? 1n) > 0n } }, options);

const CalendarDate = (options?: ValidationOptions) =>
  ValidateBy({ name: 'isCalendarDate', validator: { validate: (v) => typeof v !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(v) || parseCalendarDate(v) !== null } }, options);

/** ISO 8859-1 without control characters (contract §2, §10), as a schema pattern for generated clients. */
const LATIN1_TEXT = '^[\\u0020-\\u007E\\u0080-\\u00FF]*$';

/** POST …/transfers (contract §10, bank §2.7). */
export class CreateTransferDto {
  @ApiProperty({
    ...MONEY,
    minimum: 0.01,
    maximum: MAX_AMOUNT,
    multipleOf: 0.01,
    description: 'In the account\'s currency; > 0, at most two decimals, at most 10 000 000 000 000 (larger amounts are not exact as JSON numbers: 400 naming amount)',
  })
  @PositiveAmount({ message: 'amount must be a positive number with at most two decimals' })
  @IsDecimalNumber(2, { message: 'amount must be a JSON number with at most two decimals' })
  @Max(MAX_AMOUNT, { message: 'amount must be at most 10000000000000 (larger amounts are not exact as JSON numbers)' })
  amount: number;

  @ApiProperty({ ...CURRENCY, description: 'The account\'s currency (ISO 4217)' })
  @Matches(/^[A-Z]{3}$/, { message: 'currency must be three capital letters, e.g. SEK' })
  currency: string;

  @ApiProperty({ ...CALENDAR_DATE, description: 'A Stockholm calendar date, today or later' })
  @IsString()
  @CalendarDate({ message: 'transfer_date must be a calendar date YYYY-MM-DD' })
  @Matches(/^\d{4}-\d{2}-\d{2}$/, { message: 'transfer_date must be a date YYYY-MM-DD' })
  transfer_date: string;

  @ApiProperty({
    example: '92501234567',
    pattern: '^(\\d{8,15}|\\d{3,4}-\\d{4})$',
    description: 'Account number (clearing and account number, digits only) or bankgiro number NNN-NNNN / NNNN-NNNN with a valid check digit',
  })
  @IsString()
  @Recipient()
  recipient_account_number: string;

  // Documented required: the bank has made it mandatory since 2025-11-01; the sandbox still accepts
  // its absence while the sandbox clock stands before that date (contract §10).
  @ApiProperty({
    maxLength: TEXT_LIMITS.recipient_name,
    minLength: 1,
    pattern: LATIN1_TEXT,
    example: 'Anna Svensson',
    description: 'ISO 8859-1; mandatory from 2025-11-01 (sandbox clock; before that date it may be omitted)',
  })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(TEXT_LIMITS.recipient_name)
  @Latin1()
  recipient_name?: string;

  @ApiPropertyOptional({ maxLength: TEXT_LIMITS.counter_part_statement, pattern: LATIN1_TEXT, example: 'Faktura 1234', description: 'ISO 8859-1; shown to the recipient' })
  @IsOptional()
  @IsString()
  @MaxLength(TEXT_LIMITS.counter_part_statement)
  @Latin1()
  counter_part_statement?: string;

  @ApiPropertyOptional({ maxLength: TEXT_LIMITS.statement, pattern: LATIN1_TEXT, example: 'Hyra', description: 'ISO 8859-1; shown on the payer\'s account' })
  @IsOptional()
  @IsString()
  @MaxLength(TEXT_LIMITS.statement)
  @Latin1()
  statement?: string;
}

/** POST …/recurring-transfers: a transfer whose transfer_date is the first occurrence (contract §10). */
export class CreateRecurringTransferDto extends CreateTransferDto {
  @ApiProperty({ enum: FREQUENCIES })
  @IsIn(FREQUENCIES, { message: `frequency must be one of ${FREQUENCIES.join(', ')}` })
  frequency: Frequency;

  @ApiPropertyOptional({ ...CALENDAR_DATE, example: '2027-12-31', description: 'The last possible date of an occurrence; open-ended when absent' })
  @IsOptional()
  @IsString()
  @CalendarDate({ message: 'end_date must be a calendar date YYYY-MM-DD' })
  @Matches(/^\d{4}-\d{2}-\d{2}$/, { message: 'end_date must be a date YYYY-MM-DD' })
  end_date?: string;
}

export class TransferCreatedDto {
  @ApiProperty({ format: 'uuid' })
  reference_id: string;

  @ApiProperty({ enum: ['AWAITING_SIGNATURE'] })
  status: TransferStatus | RecurringStatus;
}

export class TransferStatusDto {
  @ApiProperty({ format: 'uuid' })
  reference_id: string;

  @ApiProperty({ enum: TRANSFER_STATUSES })
  status: TransferStatus;

  @ApiPropertyOptional({ enum: REJECTION_REASONS, description: 'Only when REJECTED' })
  rejection_reason?: string;
}

export class RecurringTransferStatusDto {
  @ApiProperty({ format: 'uuid' })
  reference_id: string;

  @ApiProperty({ enum: RECURRING_STATUSES })
  status: RecurringStatus;

  @ApiPropertyOptional({ ...CALENDAR_DATE, example: '2026-12-25', description: 'The next occurrence, while one is to come' })
  next_transfer_date?: string;
}

export class RecurringTransferDto extends RecurringTransferStatusDto {
  @ApiProperty(ACCOUNT_NUMBER)
  account_number: string;

  @ApiProperty(MONEY)
  amount: number;

  @ApiProperty(CURRENCY)
  currency: string;

  @ApiProperty({ enum: FREQUENCIES })
  frequency: Frequency;

  @ApiProperty({ ...CALENDAR_DATE, description: 'The first occurrence' })
  transfer_date: string;

  @ApiPropertyOptional({ ...CALENDAR_DATE, example: '2027-12-31' })
  end_date?: string;

  @ApiProperty({ example: '5050-1055' })
  recipient_account_number: string;

  @ApiPropertyOptional({ example: 'Anna Svensson' })
  recipient_name?: string;
}

export class RecurringTransferListDto {
  @ApiProperty({ type: [RecurringTransferDto] })
  recurring_transfers: RecurringTransferDto[];
}
