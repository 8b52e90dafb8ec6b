import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { createHash, randomUUID } from 'node:crypto';
import { Clock, type DueWork, formatUtcSeconds, SandboxConfig, SandboxDb } from '@app/common';
import type { Partner } from '@app/directory';
import type { ParticipantSigned, SigningAdmission, SigningProcess } from '@app/signing';
import { Applicants, customerServiceReference, toStatusParticipants } from '../applicants';
import { UnknownLoanApplication, WrongMortgageState } from '../mortgage.errors';
import { LoanApplicationEntity } from './loan-application.entity';
import type { CreateLoanApplicationDto, LoanApplicationCreatedDto, LoanApplicationStatusDto, SupplementaryDocumentDto, SupplementaryDocumentReceiptDto } from './loan-application.dto';
import { LoanApplicationRepository } from './loan-application.repository';
import { ACCEPTS_DOCUMENTS, LOAN_APPLICATION_LIFECYCLE } from './loan-application-status';

export const LOAN_APPLICATION_PROCESS = 'loan_application';

/**
 * Who reads a loan application: its partner, or (with `personalNumber`) an applicant through an
 * end-user token that partner obtained (bank §4.6): a partner's token never reads another partner's.
 */
export interface LoanApplicationReader {
  partnerId: string;
  personalNumber?: string;
}

/** Loan applications 2.0 (bank §3.3, §9 rule 6; contract §9). */
@Injectable()
export class LoanApplicationService implements OnModuleInit {
  private readonly logger = new Logger(LoanApplicationService.name);

  constructor(
    private readonly db: SandboxDb,
    private readonly applications: LoanApplicationRepository,
    private readonly applicants: Applicants,
    private readonly config: SandboxConfig,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    this.applicants.onSigned(LOAN_APPLICATION_PROCESS, (event) => this.onParticipantSigned(event));
    this.applicants.onSigningStart(LOAN_APPLICATION_PROCESS, (signing) => this.admitSigning(signing));
  }

  /** Creates the application with its applicants as signing participants (contract §9). */
  async create(partner: Partner, dto: CreateLoanApplicationDto): Promise<LoanApplicationCreatedDto> {
    const applicants = await this.applicants.read(dto.applicants);
    const application = Object.assign(new LoanApplicationEntity(), {
      id: randomUUID(),
      partnerId: partner.id,
      applicants,
      loanAmount: String(dto.loan_amount),
      status: 'AWAITING_SIGNATURE',
      createdAt: this.clock.now(),
      processingAt: null,
      decidedAt: null,
      customerServiceReference: null,
    });
    await this.db.transaction(async () => {
      await this.applications.insert(application);
      await this.applicants.registerSigners(process(application), applicants);
    });
    return { id: application.id, status: { type: application.status } };
  }

  async status(reader: LoanApplicationReader, id: string): Promise<LoanApplicationStatusDto> {
    const application = await this.readable(reader, id);
    const participants = await this.applicants.signers({ kind: LOAN_APPLICATION_PROCESS, id: application.id });
    return {
      id: application.id,
      status: { type: application.status },
      signing_process: { participants: toStatusParticipants(participants) },
      ...(application.customerServiceReference ? { customer_service_reference: application.customerServiceReference } : {}),
    };
  }

  /** Sandbox only: the participant signs now (no eid order), as PUT …/sign-bankid/… simulates. */
  async signNow(partner: Partner, id: string, participantId: string): Promise<void> {
    const application = await this.owned(partner, id);
    // A signature is taken while it can still submit the application (AWAITING_SIGNATURE).
    LOAN_APPLICATION_LIFECYCLE.assertMove(application.status, 'PROCESSING', () => new WrongMortgageState('loan application', application.status, 'AWAITING_SIGNATURE'));
    await this.applicants.signNow(participantId, process(application));
  }

  /** Withdraws the application (204); it is then gone (404). A decided one is 409. */
  async withdraw(partner: Partner, id: string): Promise<void> {
    const application = await this.owned(partner, id);
    if (!(await this.applications.move(application.id, 'WITHDRAWN', {}))) {
      throw new WrongMortgageState('loan application', application.status, 'not to be decided yet');
    }
  }

  async putSupplement(partner: Partner, id: string, supplementId: string, dto: SupplementaryDocumentDto): Promise<{ receipt: SupplementaryDocumentReceiptDto; created: boolean }> {
    const application = await this.owned(partner, id);
    if (!ACCEPTS_DOCUMENTS.includes(application.status)) {
      throw new WrongMortgageState('loan application', application.status, 'AWAITING_SIGNATURE or PROCESSING');
    }
    const content = Buffer.from(dto.content, 'base64');
    const receivedAt = this.clock.now();
    const sha256 = createHash('sha256').update(content).digest('hex');
    const created = await this.applications.putSupplement(application.id, {
      supplementId,
      documentType: dto.document_type,
      fileName: dto.file_name,
      contentType: dto.content_type,
      content,
      sha256,
      receivedAt,
    });
    return {
      created,
      receipt: {
        supplement_id: supplementId,
        document_type: dto.document_type,
        file_name: dto.file_name,
        content_type: dto.content_type,
        size_bytes: content.length,
        sha256,
        received_at: formatUtcSeconds(receivedAt),
      },
    };
  }

  /** Where decideDue has work now, across sandboxes (the decision job's scheduled pass). */
  decisionsDue(): DueWork {
    return this.applications.dueForDecisionWork(this.config.preApprovalDecisionDelayS);
  }

  /** The decision job, with the pre-approval rule (contract §9) on loan_amount. */
  async decideDue(): Promise<void> {
    const now = this.clock.now();
    for (const application of await this.applications.listDueForDecision(new Date(now.getTime() - this.config.preApprovalDecisionDelayS * 1000))) {
      const decision = await this.applicants.decide(Number(application.loanAmount), application.applicants);
      if (await this.applications.move(application.id, decision, { decidedAt: now })) this.logger.log(`loan application ${application.id} ${decision}`);
    }
  }

  /**
   * The main applicant's signature submits the application (bank §3.3: only the main applicant signs),
   * at the signature's instant: the decision delay counts from it, also when it was recorded late.
   */
  private async onParticipantSigned(event: ParticipantSigned): Promise<void> {
    const application = await this.applications.lock(event.process.id);
    if (!application || !LOAN_APPLICATION_LIFECYCLE.canMove(application.status, 'PROCESSING') || event.personalNumber !== application.applicants[0].personal_number) return;
    await this.applications.move(application.id, 'PROCESSING', { processingAt: event.signedAt, customerServiceReference: customerServiceReference('LA') });
  }

  /**
   * The signing seam's start check, the rule of sign-bankid: signatures are taken while the application
   * awaits them (AWAITING_SIGNATURE); once submitted or decided it is 409; withdrawn, it is gone (404).
   */
  private async admitSigning(signing: SigningProcess): Promise<SigningAdmission> {
    const application = await this.applications.find(signing.id);
    if (!application || !isVisibleTo({ partnerId: signing.partnerId }, application)) return { verdict: 'gone' };
    if (LOAN_APPLICATION_LIFECYCLE.canMove(application.status, 'PROCESSING')) return { verdict: 'open' };
    return { verdict: 'closed', why: `the loan application is ${application.status}; its applicants sign while it is AWAITING_SIGNATURE` };
  }

  private async owned(partner: Partner, id: string): Promise<LoanApplicationEntity> {
    return this.readable({ partnerId: partner.id }, id);
  }

  /** The application if this reader may see it, else 404. */
  private async readable(reader: LoanApplicationReader, id: string): Promise<LoanApplicationEntity> {
    const application = await this.applications.find(id);
    if (!application || !isVisibleTo(reader, application)) throw new UnknownLoanApplication(id);
    return application;
  }
}

/** Withdrawn applications are gone; others' are not seen (404, not leaked). */
function isVisibleTo(reader: LoanApplicationReader, application: LoanApplicationEntity): boolean {
  if (application.status === 'WITHDRAWN') return false;
  if (application.partnerId !== reader.partnerId) return false;
  return reader.personalNumber === undefined || application.applicants.some((a) => a.personal_number === reader.personalNumber);
}

const process = (application: LoanApplicationEntity) => ({ kind: LOAN_APPLICATION_PROCESS, id: application.id, partnerId: application.partnerId });
