import { Injectable, OnModuleInit } from '@nestjs/common';
import { JobRegistry } from '@app/common';
import { PreApprovalService } from './pre-approval.service';

/** Decisions PRE_APPROVAL_DECISION_DELAY_S after PROCESSING, and expiry after 30 days (contract §6, §9). */
@Injectable()
export class PreApprovalJobs implements OnModuleInit {
  constructor(
    private readonly registry: JobRegistry,
    private readonly preApprovals: PreApprovalService,
  ) {}

  onModuleInit(): void {
    this.registry.register({ name: 'pre-approval-decisions', run: () => this.preApprovals.decideDue(), due: () => this.preApprovals.decisionsDue() });
    this.registry.register({ name: 'pre-approval-expiry', run: () => this.preApprovals.expireDue(), due: () => this.preApprovals.expiriesDue() });
  }
}
