import { DynamicModule, Module } from '@nestjs/common';
import { AuthModule } from '@app/auth';
import { CommonModule, DatabaseModule, LoggingModule, SandboxConfigModule } from '@app/common';
import { DirectoryModule } from '@app/directory';
import { EidModule } from '@app/eid';
import { EnterpriseModule } from '@app/enterprise';
import { MortgageModule } from '@app/mortgage';
import { SandboxModule } from '@app/sandbox';
import { SavingsModule } from '@app/savings';
import { SigningModule } from '@app/signing';
import type { DestinationStream } from 'pino';
import { MIGRATIONS } from '../../../migrations';

export interface AppModuleOptions {
  /** The environment to validate; process.env in production, a test's own values in e2e tests. */
  env: Record<string, string | undefined>;
  /** Where log lines go; standard output when absent. */
  logDestination?: DestinationStream;
}

/** Wires the libs into the one deployable. */
@Module({})
export class AppModule {
  static forRoot(options: AppModuleOptions): DynamicModule {
    return {
      module: AppModule,
      imports: [
        SandboxConfigModule.forRoot(options.env),
        LoggingModule.forRoot({ destination: options.logDestination }),
        DatabaseModule.forRoot({ migrations: MIGRATIONS }),
        CommonModule,
        EidModule,
        DirectoryModule,
        SavingsModule,
        SandboxModule,
        AuthModule,
        SigningModule,
        MortgageModule,
        EnterpriseModule,
      ],
    };
  }
}
