import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { EidModule } from '@app/eid';
import { AccountTransactionRepository } from './accounts/account-transaction.repository';
import { AccountEntity } from './accounts/account.entity';
import { AccountTransactionEntity } from './accounts/account-transaction.entity';
import { AccountRepository } from './accounts/account.repository';
import { AccountService } from './accounts/account.service';
import { AisController } from './ais/ais.controller';
import { AisService } from './ais/ais.service';
import { TransferExecutionJob } from './execution/transfer-execution.job';
import { TransferExecutionService } from './execution/transfer-execution.service';
import { PisV3Controller } from './pis/pis-v3.controller';
import { PisController } from './pis/pis.controller';
import { RecurringTransferEntity } from './recurring/recurring-transfer.entity';
import { RecurringTransferRepository } from './recurring/recurring-transfer.repository';
import { TransferSigningEntity } from './signing/transfer-signing.entity';
import { TransferSigningRepository } from './signing/transfer-signing.repository';
import { TransferSigningService } from './signing/transfer-signing.service';
import { TransferEntity } from './transfers/transfer.entity';
import { TransferRepository } from './transfers/transfer.repository';
import { TransferService } from './transfers/transfer.service';

/** Accounts and bookkeeping, AIS v2, PIS 3.0 and v3 with transfer signing and the execution job. */
@Module({
  imports: [EidModule, TypeOrmModule.forFeature([AccountEntity, AccountTransactionEntity, TransferEntity, RecurringTransferEntity, TransferSigningEntity])],
  controllers: [AisController, PisController, PisV3Controller],
  providers: [
    AccountRepository,
    AccountService,
    AccountTransactionRepository,
    AisService,
    TransferRepository,
    RecurringTransferRepository,
    TransferService,
    TransferSigningRepository,
    TransferSigningService,
    TransferExecutionService,
    TransferExecutionJob,
  ],
  exports: [AccountService, TransferExecutionService],
})
export class SavingsModule {}
