import { ApiProperty } from '@nestjs/swagger';
import { ACCOUNT_NUMBER, CURRENCY, decimalToJsonNumber, MONEY } from '@app/common';
import type { Account } from './account';

/** An account as AIS and the admin API show it (contract §10): amounts as JSON numbers. */
export class AccountDto {
  @ApiProperty(ACCOUNT_NUMBER)
  account_number: string;

  @ApiProperty({ example: 'Lönekonto' })
  name: string;

  @ApiProperty(CURRENCY)
  currency: string;

  @ApiProperty({ ...MONEY, example: 25000.5 })
  balance: number;

  @ApiProperty({ ...MONEY, example: 24900, description: 'The balance less signed transfers due today or earlier, not yet booked' })
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
