import { Injectable } from '@nestjs/common';
import { decimalToJsonNumber, toMinorUnits, ValidationFailed } from '@app/common';
import type { Psd2Caller } from '@app/auth';
import type { Account } from '../accounts/account';
import { AccountTransactionRepository } from '../accounts/account-transaction.repository';
import { AccountService } from '../accounts/account.service';
import { UnknownAccount, UnknownTransfer } from '../savings.errors';
import type { TransferEntity } from '../transfers/transfer.entity';
import { TransferRepository } from '../transfers/transfer.repository';
import { AccountDto, toAccountDto } from '../accounts/account.dto';
import { AccountDetailsDto, AccountTransferDto, FundsAvailableDto } from './ais.dto';

/** AIS v2 (bank §4.2): the token's user's accounts, transactions and transfers; others are 404. */
@Injectable()
export class AisService {
  constructor(
    private readonly accounts: AccountService,
    private readonly transfers: TransferRepository,
    private readonly entries: AccountTransactionRepository,
  ) {}

  async accountNumbers(caller: Psd2Caller): Promise<string[]> {
    return (await this.accounts.listOwnedBy(caller.token.personalNumber)).map((a) => a.accountNumber);
  }

  async list(caller: Psd2Caller): Promise<AccountDto[]> {
    return (await this.accounts.listOwnedBy(caller.token.personalNumber)).map(toAccountDto);
  }

  async details(accountNumber: string, caller: Psd2Caller): Promise<AccountDetailsDto> {
    const account = await this.owned(accountNumber, caller);
    const transactions = await this.entries.listByAccount(account.accountNumber);
    return {
      ...toAccountDto(account),
      transactions: transactions.map((t) => ({
        reference_id: t.referenceId,
        amount: decimalToJsonNumber(t.amount),
        currency: t.currency,
        booking_date: t.bookingDate,
        counterpart: t.counterpart,
      })),
    };
  }

  async transfersOf(accountNumber: string, caller: Psd2Caller): Promise<AccountTransferDto[]> {
    const account = await this.owned(accountNumber, caller);
    return (await this.transfers.listByAccount(account.accountNumber)).map(toTransferDto);
  }

  async transfer(accountNumber: string, transferId: string, caller: Psd2Caller): Promise<AccountTransferDto> {
    const account = await this.owned(accountNumber, caller);
    const transfer = await this.transfers.findOnAccount(transferId, account.accountNumber);
    if (!transfer) throw new UnknownTransfer(transferId);
    return toTransferDto(transfer);
  }

  /** Whether the available balance covers `amount` in `currency` (another currency: false). */
  async fundsCheck(accountNumber: string, currency: string, amountText: string, caller: Psd2Caller): Promise<FundsAvailableDto> {
    const amount = toMinorUnits(amountText);
    if (amount === null || amount <= 0n) throw new ValidationFailed(`amount must be a positive decimal with a dot and at most two decimals (got ${JSON.stringify(amountText)})`);
    const account = await this.owned(accountNumber, caller);
    const available = toMinorUnits(account.availableBalance) ?? 0n;
    return { funds_available: account.currency === currency && available >= amount };
  }

  private async owned(accountNumber: string, caller: Psd2Caller): Promise<Account> {
    const account = await this.accounts.findOwned(accountNumber, caller.token.personalNumber);
    if (!account) throw new UnknownAccount(accountNumber);
    return account;
  }
}

function toTransferDto(transfer: TransferEntity): AccountTransferDto {
  return {
    reference_id: transfer.referenceId,
    status: transfer.status,
    amount: decimalToJsonNumber(transfer.amount),
    currency: transfer.currency,
    transfer_date: transfer.transferDate,
    recipient_account_number: transfer.recipientAccountNumber,
    ...(transfer.recipientName ? { recipient_name: transfer.recipientName } : {}),
    ...(transfer.counterPartStatement ? { counter_part_statement: transfer.counterPartStatement } : {}),
    ...(transfer.statement ? { statement: transfer.statement } : {}),
    ...(transfer.rejectionReason ? { rejection_reason: transfer.rejectionReason } : {}),
    ...(transfer.recurringTransferId ? { recurring_transfer_id: transfer.recurringTransferId } : {}),
  };
}
