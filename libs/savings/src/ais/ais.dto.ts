import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ACCOUNT_NUMBER, CALENDAR_DATE, CURRENCY, MONEY } from '@app/common';
import { AccountDto } from '../accounts/account.dto';
import { REJECTION_REASONS, TRANSFER_STATUSES } from '../transfers/transfer-status';

export class AccountListDto {
  @ApiProperty({ type: [AccountDto] })
  accounts: AccountDto[];
}

export class AccountNumbersDto {
  @ApiProperty({ type: [String], pattern: ACCOUNT_NUMBER.pattern, example: ['92501234567'], description: 'Clearing and account numbers, digits only' })
  account_numbers: string[];
}

export class TransactionDto {
  @ApiProperty({ format: 'uuid', description: 'The booked transfer' })
  reference_id: string;

  @ApiProperty({ ...MONEY, example: -100.5, description: 'Negative for a debit' })
  amount: number;

  @ApiProperty(CURRENCY)
  currency: string;

  @ApiProperty({ ...CALENDAR_DATE, description: 'The Stockholm date the transfer was booked' })
  booking_date: string;

  @ApiProperty({ example: 'Anna Svensson', description: 'The recipient (debits) or the paying account (credits)' })
  counterpart: string;
}

export class AccountDetailsDto extends AccountDto {
  @ApiProperty({ type: [TransactionDto], description: 'Booked transfers by execution instant, newest first' })
  transactions: TransactionDto[];
}

export class AccountTransferDto {
  @ApiProperty({ format: 'uuid' })
  reference_id: string;

  @ApiProperty({ enum: TRANSFER_STATUSES })
  status: string;

  @ApiProperty(MONEY)
  amount: number;

  @ApiProperty(CURRENCY)
  currency: string;

  @ApiProperty(CALENDAR_DATE)
  transfer_date: string;

  @ApiProperty({ example: '5050-1055', description: 'Account number (digits only) or bankgiro number' })
  recipient_account_number: string;

  @ApiPropertyOptional({ example: 'Anna Svensson' })
  recipient_name?: string;

  @ApiPropertyOptional({ example: 'Faktura 1234' })
  counter_part_statement?: string;

  @ApiPropertyOptional({ example: 'Hyra' })
  statement?: string;

  @ApiPropertyOptional({ enum: REJECTION_REASONS })
  rejection_reason?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'For an occurrence of a recurring transfer' })
  recurring_transfer_id?: string;
}

export class AccountTransfersDto {
  @ApiProperty({ type: [AccountTransferDto] })
  transfers: AccountTransferDto[];
}

export class FundsAvailableDto {
  @ApiProperty({ description: 'The available balance covers the amount, in the account\'s currency' })
  funds_available: boolean;
}
