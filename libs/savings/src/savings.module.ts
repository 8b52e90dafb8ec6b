import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccountEntity } from './accounts/account.entity';
import { AccountRepository } from './accounts/account.repository';
import { AccountService } from './accounts/account.service';

/** Accounts and bookkeeping; AIS and PIS come later. */
@Module({
  imports: [TypeOrmModule.forFeature([AccountEntity])],
  providers: [AccountRepository, AccountService],
  exports: [AccountService],
})
export class SavingsModule {}
