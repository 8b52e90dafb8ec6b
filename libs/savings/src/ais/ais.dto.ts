import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { AccountDto } from '../accounts/account.dto';
import { REJECTION_REASONS, TRANSFER_STATUSES } from '../transfers/transfer-status';

export class AccountListDto {
  @ApiProperty({ type: [AccountDto] })
  accounts: AccountDto[];
}

export class AccountNumbersDto {
  @ApiProperty({ type: [String], example: ['92501234567'] })
  account_numbers: string[];
}

export class TransactionDto {
  @ApiProperty({ format: 'uuid', description: 'The booked transfer' })
  reference_id: string;

  @ApiProperty({ example: -100.5, description: 'Negative for a debit' })
  amount: number;

  @ApiProperty({ example: 'SEK' })
  currency: string;

  @ApiProperty({ example: '2026-11-25' })
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

  @ApiProperty({ example: 100.5 })
  amount: number;

  @ApiProperty({ example: 'SEK' })
  currency: string;

  @ApiProperty({ example: '2026-11-25' })
  transfer_date: string;

  @ApiProperty({ example: '5050-1055' })
  recipient_account_number: string;

  @ApiPropertyOptional()
  recipient_name?: string;

  @ApiPropertyOptional()
  counter_part_statement?: string;

  @ApiPropertyOptional()
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
  @ApiProperty()
  funds_available: boolean;
}
