import { Injectable, OnModuleInit } from '@nestjs/common';
import { JobRegistry } from '@app/common';
import { LoanApplicationService } from './loan-application.service';

/** Decisions PRE_APPROVAL_DECISION_DELAY_S after a loan application reached PROCESSING (contract §6, §9). */
@Injectable()
export class LoanApplicationJobs implements OnModuleInit {
  constructor(
    private readonly registry: JobRegistry,
    private readonly applications: LoanApplicationService,
  ) {}

  onModuleInit(): void {
    this.registry.register({ name: 'loan-application-decisions', run: () => this.applications.decideDue(), due: () => this.applications.decisionsDue() });
  }
}
