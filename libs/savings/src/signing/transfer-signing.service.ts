import { Injectable, OnModuleInit } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { Clock, SandboxDb } from '@app/common';
import type { Psd2Caller } from '@app/auth';
import { type EidOrder, EidOrderCompletions, EidOrderService, shownHintCode } from '@app/eid';
import { RecurringTransferRepository } from '../recurring/recurring-transfer.repository';
import { NotSignable, UnknownSigning, UnknownTransfer } from '../savings.errors';
import { TransferRepository } from '../transfers/transfer.repository';
import { RECURRING_LIFECYCLE, TRANSFER_LIFECYCLE } from '../transfers/transfer-status';
import { TransferSigningStartedDto, TransferSigningStatusDto } from './signing.dto';
import { TransferSigningEntity } from './transfer-signing.entity';
import { TransferSigningRepository } from './transfer-signing.repository';

/**
 * Every transfer must be signed with eid before it can execute (bank §4.2 rule 3). A signing is an
 * eid order of libs/eid with the user's behaviour; when it completes (told by the eid engine, else
 * found at collect), its transfers are SIGNED and its recurring transfers ACTIVE, once.
 */
@Injectable()
export class TransferSigningService implements OnModuleInit {
  constructor(
    private readonly db: SandboxDb,
    private readonly signings: TransferSigningRepository,
    private readonly transfers: TransferRepository,
    private readonly recurring: RecurringTransferRepository,
    private readonly eid: EidOrderService,
    private readonly eidCompletions: EidOrderCompletions,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    this.eidCompletions.onOrderComplete('signing', (order) => this.signedWith(order));
  }

  async start(referenceIds: string[], caller: Psd2Caller): Promise<TransferSigningStartedDto> {
    const ids = referenceIds.map((id) => id.toLowerCase());
    const owner = caller.token.personalNumber;
    const [transfers, recurring] = await Promise.all([
      this.transfers.findSignable(ids, owner, caller.tpp.id),
      this.recurring.findSignable(ids, owner, caller.tpp.id),
    ]);
    // Each must be able to move to what its signature makes of it (SIGNED, or ACTIVE for a recurring one).
    const signable = new Map<string, () => void>([
      ...transfers.map((t) => [t.referenceId, () => TRANSFER_LIFECYCLE.assertMove(t.status, 'SIGNED', () => new NotSignable(t.referenceId, t.status))] as const),
      ...recurring.map((r) => [r.referenceId, () => RECURRING_LIFECYCLE.assertMove(r.status, 'ACTIVE', () => new NotSignable(r.referenceId, r.status))] as const),
    ]);
    for (const id of ids) {
      const assertSignable = signable.get(id);
      if (!assertSignable) throw new UnknownTransfer(id);
      assertSignable();
    }
    const order = await this.eid.start({ kind: 'signing', channel: 'app', personalNumber: owner, requestedBy: caller.tpp.identifier });
    const signing = Object.assign(new TransferSigningEntity(), {
      signingId: randomUUID(),
      tppId: caller.tpp.id,
      personalNumber: owner,
      eidOrderId: order.id,
      referenceIds: ids,
      createdAt: order.startedAt,
      appliedAt: null,
    });
    await this.signings.insert(signing);
    return { signing_id: signing.signingId, autostart_token: order.autostartToken };
  }

  /** Bank §3.2 statuses as the user's app leaves the order; a COMPLETE signing signs its transfers. */
  async collect(signingId: string, caller: Psd2Caller): Promise<TransferSigningStatusDto> {
    const signing = await this.owned(signingId, caller);
    const order = await this.eid.poll(signing.eidOrderId);
    await this.applyIfComplete(signing, order);
    const hintCode = shownHintCode(order);
    return {
      status: order.status,
      ...(hintCode ? { hint_code: hintCode } : {}),
    };
  }

  /** Sandbox only: the user signs now (PUT …/sign-bankid/{signing-id}); 409 when the order is no longer open. */
  async signNow(signingId: string, caller: Psd2Caller): Promise<void> {
    const signing = await this.owned(signingId, caller);
    await this.applyIfComplete(signing, await this.eid.complete(signing.eidOrderId));
  }

  /** The eid seam (bank §3.2): the transfer signing of a just-completed order applies at its finish, without a collect. */
  private async signedWith(order: EidOrder): Promise<void> {
    const signing = await this.signings.findByEidOrder(order.id);
    if (signing) await this.applyIfComplete(signing, order);
  }

  private async owned(signingId: string, caller: Psd2Caller): Promise<TransferSigningEntity> {
    const signing = await this.signings.findOwned(signingId.toLowerCase(), caller.token.personalNumber, caller.tpp.id);
    if (!signing) throw new UnknownSigning(signingId);
    return signing;
  }

  private async applyIfComplete(signing: TransferSigningEntity, order: EidOrder): Promise<void> {
    if (order.status !== 'COMPLETE' || signing.appliedAt) return;
    const signedAt = order.finishedAt ?? this.clock.now();
    await this.db.transaction(async () => {
      if (!(await this.signings.claimApplication(signing.signingId, signedAt))) return;
      // Transfers deleted meanwhile stay DELETED: both statements move only AWAITING_SIGNATURE rows.
      await this.transfers.markSigned(signing.referenceIds, signedAt);
      await this.recurring.markActive(signing.referenceIds, signedAt);
    });
  }
}
