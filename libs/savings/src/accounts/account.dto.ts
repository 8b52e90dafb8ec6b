import { ApiProperty } from '@nestjs/swagger';
import { decimalToJsonNumber } from '@app/common';
import type { Account } from './account';

/** An account as AIS and the admin API show it (contract §10): amounts as JSON numbers. */
export class AccountDto {
  @ApiProperty({ example: '92501234567', description: 'Clearing and account number, digits only' })
  account_number: string;

  @ApiProperty({ example: 'Lönekonto' })
  name: string;

  @ApiProperty({ example: 'SEK' })
  currency: string;

  @ApiProperty({ example: 25000.5 })
  balance: number;

  @ApiProperty({ example: 24900, description: 'The balance less signed transfers due today or earlier, not yet booked' })
  available_balance: number;
}

export function toAccountDto(account: Account): AccountDto {
  return {
    account_number: account.accountNumber,
    name: account.name,
    currency: account.currency,
    balance: decimalToJsonNumber(account.balance),
    available_balance: decimalToJsonNumber(account.availableBalance),
  };
}
