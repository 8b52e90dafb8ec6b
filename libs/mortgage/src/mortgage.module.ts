import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SigningModule } from '@app/signing';
import { Applicants } from './applicants';
import { LoanApplicationController } from './loan-application/loan-application.controller';
import { LoanApplicationEntity } from './loan-application/loan-application.entity';
import { LoanApplicationJobs } from './loan-application/loan-application.jobs';
import { LoanApplicationRepository } from './loan-application/loan-application.repository';
import { LoanApplicationService } from './loan-application/loan-application.service';
import { LoanReaderAccessStrategy } from './loan-application/loan-reader.strategy';
import { MortgageOpenApiController } from './openapi/mortgage-openapi.controller';
import { PreApprovalController } from './pre-approval/pre-approval.controller';
import { PreApprovalEntity } from './pre-approval/pre-approval.entity';
import { PreApprovalJobs } from './pre-approval/pre-approval.jobs';
import { PreApprovalRepository } from './pre-approval/pre-approval.repository';
import { PreApprovalService } from './pre-approval/pre-approval.service';
import { InterestRateController } from './rates/interest-rate.controller';

/** Mortgage pre-approval, loan applications 2.0 and interest rates (bank §4.5, §9; contract §9). */
@Module({
  imports: [SigningModule, TypeOrmModule.forFeature([PreApprovalEntity, LoanApplicationEntity])],
  controllers: [PreApprovalController, LoanApplicationController, InterestRateController, MortgageOpenApiController],
  providers: [Applicants, PreApprovalRepository, PreApprovalService, PreApprovalJobs, LoanApplicationRepository, LoanApplicationService, LoanApplicationJobs, LoanReaderAccessStrategy],
  exports: [LoanApplicationService],
})
export class MortgageModule {}
