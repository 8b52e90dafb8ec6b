import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { Clock, type DueWork, formatUtcSeconds, SandboxConfig, ValidationFailed, SandboxDb } from '@app/common';
import type { Partner } from '@app/directory';
import type { ParticipantSigned, SigningAdmission, SigningProcess } from '@app/signing';
import { Applicants, customerServiceReference, toStatusParticipants } from '../applicants';
import { UnknownPreApproval, WrongMortgageState } from '../mortgage.errors';
import { generateOffer } from './offer';
import { AcceptPreApprovalResponseDto, CreatePreApprovalDto, PreApprovalCreatedDto, PreApprovalStatusDto } from './pre-approval.dto';
import { PreApprovalEntity } from './pre-approval.entity';
import { PreApprovalRepository } from './pre-approval.repository';
import { PRE_APPROVAL_LIFECYCLE, PRE_APPROVAL_VALIDITY_DAYS } from './pre-approval-status';

export const PRE_APPROVAL_PROCESS = 'pre_approval';
const DAY_MS = 86_400_000;

/** Mortgage pre-approval (bank §2.6, §3.3, §4.5; contract §9). */
@Injectable()
export class PreApprovalService implements OnModuleInit {
  private readonly logger = new Logger(PreApprovalService.name);

  constructor(
    private readonly db: SandboxDb,
    private readonly preApprovals: PreApprovalRepository,
    private readonly applicants: Applicants,
    private readonly config: SandboxConfig,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    this.applicants.onSigned(PRE_APPROVAL_PROCESS, (event) => this.onParticipantSigned(event));
    this.applicants.onSigningStart(PRE_APPROVAL_PROCESS, (signing) => this.admitSigning(signing));
  }

  async create(partner: Partner, dto: CreatePreApprovalDto): Promise<PreApprovalCreatedDto> {
    const applicants = await this.applicants.read(dto.applicants);
    const now = this.clock.now();
    const preApproval = Object.assign(new PreApprovalEntity(), {
      id: randomUUID(),
      partnerId: partner.id,
      applicants,
      loanAmount: String(dto.loan_amount),
      unsecuredLoanAmount: dto.unsecured_loan_amount === undefined ? null : String(dto.unsecured_loan_amount),
      offer: generateOffer(dto.loan_amount, dto.unsecured_loan_amount),
      status: 'OFFER_GENERATED',
      withUnsecuredLoan: null,
      createdAt: now,
      // To the whole second, as expiry_date shows it: the offer expires at the instant it states (contract §9).
      expiryDate: new Date(Math.floor((now.getTime() + PRE_APPROVAL_VALIDITY_DAYS * DAY_MS) / 1000) * 1000),
      processingAt: null,
      decidedAt: null,
      customerServiceReference: null,
    });
    await this.preApprovals.insert(preApproval);
    return { id: preApproval.id, status: { type: preApproval.status }, offer: preApproval.offer, expiry_date: formatUtcSeconds(preApproval.expiryDate) };
  }

  /** Accepts a variant: AWAITING_ACCEPTANCE, with the applicants registered as signing participants. */
  async accept(partner: Partner, id: string, withUnsecuredLoan: boolean): Promise<AcceptPreApprovalResponseDto> {
    return this.db.transaction(async () => {
      const preApproval = await this.owned(partner, id, true);
      if (withUnsecuredLoan && !preApproval.offer.with_unsecured_loan) {
        throw new ValidationFailed('with_unsecured_loan is true, but no unsecured loan was offered (create the pre-approval with unsecured_loan_amount)');
      }
      await this.expireIfDue(preApproval);
      PRE_APPROVAL_LIFECYCLE.assertMove(
        preApproval.status,
        'AWAITING_ACCEPTANCE',
        () => new WrongMortgageState('pre-approval', preApproval.status, 'OFFER_GENERATED (an offer is accepted once)'),
      );
      const participants = await this.applicants.registerSigners({ kind: PRE_APPROVAL_PROCESS, id: preApproval.id, partnerId: partner.id }, preApproval.applicants);
      await this.preApprovals.move(preApproval.id, 'AWAITING_ACCEPTANCE', { withUnsecuredLoan });
      return {
        status: 'AWAITING_ACCEPTANCE',
        signing_process: { participants: participants.map((p) => ({ personal_number: p.personalNumber, id: p.id })) },
        expiry_date: formatUtcSeconds(preApproval.expiryDate),
      };
    });
  }

  async status(partner: Partner, id: string): Promise<PreApprovalStatusDto> {
    const preApproval = await this.owned(partner, id);
    await this.expireIfDue(preApproval);
    const participants = preApproval.status === 'OFFER_GENERATED' ? [] : await this.applicants.signers({ kind: PRE_APPROVAL_PROCESS, id: preApproval.id });
    return {
      signing_process: { participants: toStatusParticipants(participants) },
      status: { type: preApproval.status },
      ...(preApproval.customerServiceReference ? { customer_service_reference: preApproval.customerServiceReference } : {}),
      expiry_date: formatUtcSeconds(preApproval.expiryDate),
    };
  }

  /** Where decideDue has work now, across sandboxes (the decision job's scheduled pass). */
  decisionsDue(): DueWork {
    return this.preApprovals.dueForDecisionWork(this.config.preApprovalDecisionDelayS);
  }

  /** Where expireDue has work now, across sandboxes (the expiry job's scheduled pass). */
  expiriesDue(): DueWork {
    return this.preApprovals.dueForExpiryWork();
  }

  /** The decision job: PROCESSING for PRE_APPROVAL_DECISION_DELAY_S of sandbox time → APPROVED or REJECTED, once. */
  async decideDue(): Promise<void> {
    const now = this.clock.now();
    const due = await this.preApprovals.listDueForDecision(new Date(now.getTime() - this.config.preApprovalDecisionDelayS * 1000));
    for (const preApproval of due) {
      const unsecured = preApproval.withUnsecuredLoan ? Number(preApproval.unsecuredLoanAmount ?? 0) : 0;
      const decision = await this.applicants.decide(Number(preApproval.loanAmount) + unsecured, preApproval.applicants);
      // Conditional on PROCESSING: another instance that decided first makes this a no-op.
      if (await this.preApprovals.move(preApproval.id, decision, { decidedAt: now })) this.logger.log(`pre-approval ${preApproval.id} ${decision}`);
    }
  }

  /** The expiry job: everything past its expiry_date that has not reached PROCESSING. */
  async expireDue(): Promise<void> {
    await this.preApprovals.expireDue(this.clock.now());
  }

  /**
   * The signing seam: SIGNING_ONGOING while some applicants have signed, PROCESSING once all have.
   * Judged at the signature's instant, not at its delivery (contract §9): a signing completed before
   * expiry_date counts even when recorded after it (a collect catching up), and the application
   * reached PROCESSING when its last applicant signed, which the decision delay counts from.
   */
  private async onParticipantSigned(event: ParticipantSigned): Promise<void> {
    const preApproval = await this.preApprovals.lock(event.process.id);
    // Only a pre-approval a signature can still bring to PROCESSING listens (AWAITING_ACCEPTANCE, SIGNING_ONGOING).
    if (!preApproval || !PRE_APPROVAL_LIFECYCLE.canMove(preApproval.status, 'PROCESSING')) return;
    if (await this.expireIfDue(preApproval, event.signedAt)) return;
    const participants = await this.applicants.signers({ kind: PRE_APPROVAL_PROCESS, id: preApproval.id });
    if (participants.every((p) => p.signedAt !== null)) {
      const allSignedAt = new Date(Math.max(...participants.map((p) => p.signedAt!.getTime())));
      await this.preApprovals.move(preApproval.id, 'PROCESSING', { processingAt: allSignedAt, customerServiceReference: customerServiceReference('PA') });
    } else {
      await this.preApprovals.move(preApproval.id, 'SIGNING_ONGOING', {});
    }
  }

  /**
   * The signing seam's start check: a signature is taken only while it can still bring the
   * pre-approval to PROCESSING (AWAITING_ACCEPTANCE, SIGNING_ONGOING; bank §3.3). EXPIRED (also when
   * only its expiry_date has passed), PROCESSING and decided ones are 409 (contract §2, §9).
   */
  private async admitSigning(signing: SigningProcess): Promise<SigningAdmission> {
    const preApproval = await this.preApprovals.findOwned(signing.id, signing.partnerId);
    if (!preApproval) return { verdict: 'gone' };
    await this.expireIfDue(preApproval);
    if (PRE_APPROVAL_LIFECYCLE.canMove(preApproval.status, 'PROCESSING')) return { verdict: 'open' };
    return { verdict: 'closed', why: `the pre-approval is ${preApproval.status}; its applicants sign while it is AWAITING_ACCEPTANCE or SIGNING_ONGOING` };
  }

  /**
   * Contract §9: past expiry_date without reaching PROCESSING is EXPIRED (also before the job sees
   * it), judged at `at`: now, or the instant of a signature recorded late.
   */
  private async expireIfDue(preApproval: PreApprovalEntity, at: Date = this.clock.now()): Promise<boolean> {
    if (at < preApproval.expiryDate || !(await this.preApprovals.move(preApproval.id, 'EXPIRED', {}))) return false;
    // The row moved; the copy in hand follows (its status, read earlier, can only be an earlier one).
    PRE_APPROVAL_LIFECYCLE.assertMove(preApproval.status, 'EXPIRED');
    preApproval.status = 'EXPIRED';
    return true;
  }

  private async owned(partner: Partner, id: string, lock = false): Promise<PreApprovalEntity> {
    const preApproval = await this.preApprovals.findOwned(id, partner.id, lock);
    if (!preApproval) throw new UnknownPreApproval(id);
    return preApproval;
  }
}
