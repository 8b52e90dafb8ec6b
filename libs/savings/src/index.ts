export { SavingsModule } from './savings.module';
export { AccountService } from './accounts/account.service';
export type { Account, OpenAccount } from './accounts/account';
export { SANDBOX_CLEARING_NUMBER } from './accounts/account-number';
export { TransferExecutionService } from './execution/transfer-execution.service';
export { AccountDto, toAccountDto } from './accounts/account.dto';
