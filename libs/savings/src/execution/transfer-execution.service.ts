import { Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { Clock, type DueWork, stockholmInstant, stockholmToday, SandboxDb } from '@app/common';
import { AccountTransactionRepository } from '../accounts/account-transaction.repository';
import { AccountRepository } from '../accounts/account.repository';
import { RecurringTransferRepository } from '../recurring/recurring-transfer.repository';
import { occurrenceDate } from '../recurring/schedule';
import { TransferEntity } from '../transfers/transfer.entity';
import { TransferRepository } from '../transfers/transfer.repository';

const BATCH = 200;

/**
 * Books signed transfers at 00:00 Stockholm on their date (a transfer dated today at the next run),
 * and the occurrences of active recurring transfers (contract §10). Each transfer is booked in one
 * transaction holding its row lock, so several runs at once book it exactly once, and a deletion
 * racing the booking either wins or answers 409. Balances change only here.
 */
@Injectable()
export class TransferExecutionService {
  private readonly logger = new Logger(TransferExecutionService.name);

  constructor(
    private readonly db: SandboxDb,
    private readonly transfers: TransferRepository,
    private readonly recurring: RecurringTransferRepository,
    private readonly accounts: AccountRepository,
    private readonly entries: AccountTransactionRepository,
    private readonly clock: Clock,
  ) {}

  /** Where executeDue has work now, across sandboxes: due transfers or occurrences (the job's scheduled pass). */
  dueWork(): DueWork {
    return { sql: `${this.transfers.dueWork().sql} UNION ALL ${this.recurring.dueWork().sql}` };
  }

  async executeDue(): Promise<{ executed: number; rejected: number }> {
    const now = this.clock.now();
    const today = stockholmToday(now);
    for (const id of await this.recurring.listActiveIds()) await this.bookOccurrences(id, today, now);
    const outcome = { executed: 0, rejected: 0 };
    for (;;) {
      const due = await this.transfers.listDue(today, BATCH);
      let progressed = false;
      for (const id of due) {
        const result = await this.execute(id, now);
        if (result) {
          outcome[result]++;
          progressed = true;
        }
      }
      // Rows another run holds are skipped; stop rather than spin on them.
      if (due.length < BATCH || !progressed) break;
    }
    if (outcome.executed + outcome.rejected > 0) this.logger.log(`transfers booked: ${outcome.executed} executed, ${outcome.rejected} rejected`);
    return outcome;
  }

  /** Books one transfer; null when another run holds it or it is no longer SIGNED. */
  private execute(referenceId: string, now: Date): Promise<'executed' | 'rejected' | null> {
    return this.db.transaction(async () => {
      const transfer = await this.transfers.lockForExecution(referenceId);
      if (!transfer) return null;
      // Validation at execution (bank §4.2 rule 2): signed by the end of its date, and covered by the
      // balance. A late signature is not paid on a later day, nor booked on a day already gone.
      if (signedAfterItsDate(transfer)) {
        await this.transfers.markRejected(referenceId, 'TRANSFER_DATE_PASSED');
        return 'rejected';
      }
      if (!(await this.accounts.debit(transfer.accountNumber, transfer.amount))) {
        await this.transfers.markRejected(referenceId, 'INSUFFICIENT_FUNDS');
        return 'rejected';
      }
      const executedAt = executionInstant(transfer, now);
      await this.entries.insert(
        transfer.accountNumber,
        { referenceId, amount: `-${transfer.amount}`, currency: transfer.currency, bookingDate: transfer.transferDate, counterpart: transfer.recipientName ?? transfer.recipientAccountNumber },
        executedAt,
      );
      if (await this.accounts.credit(transfer.recipientAccountNumber, transfer.amount, transfer.currency)) {
        await this.entries.insert(
          transfer.recipientAccountNumber,
          { referenceId, amount: transfer.amount, currency: transfer.currency, bookingDate: transfer.transferDate, counterpart: transfer.accountNumber },
          executedAt,
        );
      }
      await this.transfers.markExecuted(referenceId, executedAt);
      return 'executed';
    });
  }

  /** Creates the due occurrences of a recurring transfer as signed transfers, and ends it after its end_date. */
  private async bookOccurrences(referenceId: string, today: string, now: Date): Promise<void> {
    await this.db.transaction(async () => {
      const recurring = await this.recurring.lockActive(referenceId);
      if (!recurring) return;
      let booked = recurring.occurrencesBooked;
      let next = occurrenceDate(recurring.transferDate, recurring.frequency, booked);
      const withinEnd = (date: string) => recurring.endDate === null || date <= recurring.endDate;
      while (next <= today && withinEnd(next)) {
        await this.transfers.insertOccurrence(
          Object.assign(new TransferEntity(), {
            referenceId: randomUUID(),
            accountNumber: recurring.accountNumber,
            ownerPersonalNumber: recurring.ownerPersonalNumber,
            tppId: recurring.tppId,
            recurringTransferId: recurring.referenceId,
            amount: recurring.amount,
            currency: recurring.currency,
            transferDate: next,
            recipientAccountNumber: recurring.recipientAccountNumber,
            recipientName: recurring.recipientName,
            counterPartStatement: recurring.counterPartStatement,
            statement: recurring.statement,
            status: 'SIGNED',
            rejectionReason: null,
            createdAt: now,
            signedAt: recurring.signedAt,
            executedAt: null,
          }),
        );
        booked++;
        next = occurrenceDate(recurring.transferDate, recurring.frequency, booked);
      }
      await this.recurring.recordOccurrences(referenceId, booked, !withinEnd(next));
    });
  }
}

/** Signed on a Stockholm day after the transfer's date (a recurring transfer's occurrences carry its signature). */
function signedAfterItsDate(transfer: TransferEntity): boolean {
  return transfer.signedAt !== null && stockholmToday(transfer.signedAt) > transfer.transferDate;
}

/** 00:00 Stockholm on the transfer's date, or the signature if that came later (a transfer dated today). */
function executionInstant(transfer: TransferEntity, now: Date): Date {
  const midnight = stockholmInstant(transfer.transferDate);
  const signed = transfer.signedAt ?? now;
  return signed > midnight ? signed : midnight;
}
