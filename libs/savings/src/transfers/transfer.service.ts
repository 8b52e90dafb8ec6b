import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { Clock, minorUnitsToDecimal, stockholmInstant, stockholmToday, toMinorUnits, ValidationFailed } from '@app/common';
import type { Psd2Caller } from '@app/auth';
import { AccountService } from '../accounts/account.service';
import type { Account } from '../accounts/account';
import { RecurringTransferEntity } from '../recurring/recurring-transfer.entity';
import { RecurringTransferRepository } from '../recurring/recurring-transfer.repository';
import { occurrenceDate } from '../recurring/schedule';
import { TransferNotDeletable, UnknownAccount, UnknownTransfer } from '../savings.errors';
import { CreateRecurringTransferDto, CreateTransferDto, RecurringTransferDto, RecurringTransferStatusDto, TransferCreatedDto, TransferStatusDto } from './transfer.dto';
import { TransferEntity } from './transfer.entity';
import { type TransferScope, TransferRepository } from './transfer.repository';
import { RECIPIENT_NAME_MANDATORY_FROM } from './transfer-rules';

/** The fields both kinds of transfer share, checked against the account and the sandbox clock. */
interface CheckedOrder {
  amount: string;
  currency: string;
  transferDate: string;
  recipientAccountNumber: string;
  recipientName: string | null;
  counterPartStatement: string | null;
  statement: string | null;
}

/** PIS 3.0 and v3: ordering, following and deleting transfers and recurring transfers (bank §4.2, §4.3; contract §10). */
@Injectable()
export class TransferService {
  constructor(
    private readonly transfers: TransferRepository,
    private readonly recurring: RecurringTransferRepository,
    private readonly accounts: AccountService,
    private readonly clock: Clock,
  ) {}

  /**
   * One statement when the order is right (the hot path): the rules that need no account are
   * checked against the currency asked for, and the insert takes only the caller's own account in
   * that currency. Anything else is answered as always: the account read, then the rules in order.
   */
  async order(accountNumber: string, dto: CreateTransferDto, caller: Psd2Caller): Promise<TransferCreatedDto> {
    const assumed = this.checksOut(dto, dto.currency);
    if (assumed) {
      const transfer = this.newTransfer(accountNumber, assumed, caller);
      if (await this.transfers.insertIntoOwnedAccount(transfer)) return { reference_id: transfer.referenceId, status: transfer.status };
    }
    const account = await this.callersAccount(accountNumber, caller);
    const transfer = this.newTransfer(account.accountNumber, this.check(dto, account.currency), caller);
    await this.transfers.insert(transfer);
    return { reference_id: transfer.referenceId, status: transfer.status };
  }

  private newTransfer(accountNumber: string, checked: CheckedOrder, caller: Psd2Caller): TransferEntity {
    return Object.assign(new TransferEntity(), {
      referenceId: randomUUID(),
      accountNumber,
      ownerPersonalNumber: caller.token.personalNumber,
      tppId: caller.tpp.id,
      recurringTransferId: null,
      ...checked,
      status: 'AWAITING_SIGNATURE',
      rejectionReason: null,
      createdAt: this.clock.now(),
      signedAt: null,
      executedAt: null,
    });
  }

  async orderRecurring(accountNumber: string, dto: CreateRecurringTransferDto, caller: Psd2Caller): Promise<TransferCreatedDto> {
    const account = await this.callersAccount(accountNumber, caller);
    const checked = this.check(dto, account.currency);
    if (dto.end_date !== undefined) {
      if (dto.end_date < checked.transferDate) throw new ValidationFailed('end_date must not be before transfer_date (the first occurrence)');
    }
    const recurring = Object.assign(new RecurringTransferEntity(), {
      referenceId: randomUUID(),
      accountNumber: account.accountNumber,
      ownerPersonalNumber: caller.token.personalNumber,
      tppId: caller.tpp.id,
      ...checked,
      endDate: dto.end_date ?? null,
      frequency: dto.frequency,
      status: 'AWAITING_SIGNATURE',
      occurrencesBooked: 0,
      createdAt: this.clock.now(),
      signedAt: null,
    });
    await this.recurring.insert(recurring);
    return { reference_id: recurring.referenceId, status: recurring.status };
  }

  async status(accountNumber: string, referenceId: string, caller: Psd2Caller): Promise<TransferStatusDto> {
    const transfer = await this.transfers.findInScope(referenceId, scopeOf(accountNumber, caller));
    if (!transfer) throw new UnknownTransfer(referenceId);
    return {
      reference_id: transfer.referenceId,
      status: transfer.status,
      ...(transfer.rejectionReason ? { rejection_reason: transfer.rejectionReason } : {}),
    };
  }

  async recurringStatus(accountNumber: string, referenceId: string, caller: Psd2Caller): Promise<RecurringTransferStatusDto> {
    const recurring = await this.recurring.findInScope(referenceId, scopeOf(accountNumber, caller));
    if (!recurring) throw new UnknownTransfer(referenceId);
    return toRecurringStatus(recurring);
  }

  async listRecurring(caller: Psd2Caller): Promise<RecurringTransferDto[]> {
    return (await this.recurring.listForCaller(caller.token.personalNumber, caller.tpp.id)).map(toRecurringView);
  }

  /** 204 before execution (status DELETED); an executed, rejected or deleted transfer is 409. */
  async delete(accountNumber: string, referenceId: string, caller: Psd2Caller): Promise<void> {
    const scope = scopeOf(accountNumber, caller);
    const transfer = await this.transfers.findInScope(referenceId, scope);
    if (!transfer) throw new UnknownTransfer(referenceId);
    if (await this.transfers.move(referenceId, 'DELETED', {})) return;
    const now = await this.transfers.findInScope(referenceId, scope);
    throw new TransferNotDeletable(referenceId, now?.status ?? transfer.status);
  }

  /** Stops a recurring transfer's future occurrences (status DELETED). */
  async deleteRecurring(accountNumber: string, referenceId: string, caller: Psd2Caller): Promise<void> {
    const recurring = await this.recurring.findInScope(referenceId, scopeOf(accountNumber, caller));
    if (!recurring) throw new UnknownTransfer(referenceId);
    if (!(await this.recurring.move(referenceId, 'DELETED'))) throw new TransferNotDeletable(referenceId, recurring.status);
  }

  private async callersAccount(accountNumber: string, caller: Psd2Caller): Promise<Account> {
    const account = await this.accounts.findOwned(accountNumber, caller.token.personalNumber);
    if (!account) throw new UnknownAccount(accountNumber);
    return account;
  }

  /** check() against an account in `currency`, or null where it refuses. */
  private checksOut(dto: CreateTransferDto, currency: string): CheckedOrder | null {
    try {
      return this.check(dto, currency);
    } catch (error) {
      if (error instanceof ValidationFailed) return null;
      throw error;
    }
  }

  /** The rules of contract §10 and bank §2.7 that need the account's currency or the clock (the DTO checked the rest). */
  private check(dto: CreateTransferDto, currency: string): CheckedOrder {
    const minor = toMinorUnits(dto.amount);
    // The DTO made it a positive amount with at most two decimals.
    if (minor === null) throw new ValidationFailed('amount must be a positive number with at most two decimals');
    if (dto.currency !== currency) {
      throw new ValidationFailed(`currency must be the account's currency ${currency} (got ${dto.currency})`);
    }
    const now = this.clock.now();
    const today = stockholmToday(now);
    if (dto.transfer_date < today) throw new ValidationFailed(`transfer_date must be today (${today}, Stockholm) or later`);
    if (dto.recipient_name === undefined && now >= stockholmInstant(RECIPIENT_NAME_MANDATORY_FROM)) {
      throw new ValidationFailed('recipient_name is mandatory (since 2025-11-01)');
    }
    return {
      amount: minorUnitsToDecimal(minor),
      currency: dto.currency,
      transferDate: dto.transfer_date,
      recipientAccountNumber: dto.recipient_account_number,
      recipientName: dto.recipient_name ?? null,
      counterPartStatement: dto.counter_part_statement ?? null,
      statement: dto.statement ?? null,
    };
  }
}

const scopeOf = (accountNumber: string, caller: Psd2Caller): TransferScope => ({
  accountNumber,
  owner: caller.token.personalNumber,
  tppId: caller.tpp.id,
});

/** The next occurrence while one is to come (ACTIVE, or awaiting its signature). */
export function nextTransferDate(recurring: RecurringTransferEntity): string | null {
  if (recurring.status !== 'ACTIVE' && recurring.status !== 'AWAITING_SIGNATURE') return null;
  const next = occurrenceDate(recurring.transferDate, recurring.frequency, recurring.occurrencesBooked);
  return recurring.endDate !== null && next > recurring.endDate ? null : next;
}

function toRecurringStatus(recurring: RecurringTransferEntity): RecurringTransferStatusDto {
  const next = nextTransferDate(recurring);
  return { reference_id: recurring.referenceId, status: recurring.status, ...(next ? { next_transfer_date: next } : {}) };
}

function toRecurringView(recurring: RecurringTransferEntity): RecurringTransferDto {
  return {
    ...toRecurringStatus(recurring),
    account_number: recurring.accountNumber,
    amount: Number(recurring.amount),
    currency: recurring.currency,
    frequency: recurring.frequency,
    transfer_date: recurring.transferDate,
    ...(recurring.endDate ? { end_date: recurring.endDate } : {}),
    recipient_account_number: recurring.recipientAccountNumber,
    ...(recurring.recipientName ? { recipient_name: recurring.recipientName } : {}),
  };
}
