export { MortgageModule } from './mortgage.module';
export { LoanApplicationService } from './loan-application/loan-application.service';
export type { LoanApplicationReader } from './loan-application/loan-application.service';
