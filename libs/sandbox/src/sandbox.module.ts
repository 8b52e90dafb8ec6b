import { Module } from '@nestjs/common';
import { AuthModule } from '@app/auth';
import { DirectoryModule } from '@app/directory';
import { EidModule } from '@app/eid';
import { EnterpriseModule } from '@app/enterprise';
import { SavingsModule } from '@app/savings';
import { SigningModule } from '@app/signing';
import { ConsoleController } from './console/console.controller';
import { ConsoleService } from './console/console.service';
import { AdminEidOrdersController } from './eid-orders/admin-eid-orders.controller';
import { AdminCertificatesController, SandboxCertificatesController } from './certificates/sandbox-certificates.controller';
import { SandboxCertificatesService } from './certificates/sandbox-certificates.service';
import { TestCertificateController } from './certificates/test-certificate.controller';
import { TestCertificateService } from './certificates/test-certificate.service';
import { AdminClockController } from './clock/admin-clock.controller';
import { AdminClockService } from './clock/admin-clock.service';
import { DowntimeBookkeeping } from './downtime/downtime-bookkeeping';
import { DowntimeGate } from './downtime/downtime.gate';
import { MaintenanceWindowsController } from './downtime/maintenance-windows.controller';
import { RetiredVersionGate } from './retired/retired-version.gate';
import { RetiredVersionsOpenApi } from './retired/retired-versions.openapi';
import { AdminRequestsController, SandboxRequestsController } from './journal/journal.controllers';
import { JournalReaderStrategy } from './journal/journal-reader.strategy';
import { JournalService } from './journal/journal.service';
import { AdminJobsController } from './jobs/admin-jobs.controller';
import { AdminPartnersController } from './partners/admin-partners.controller';
import { AdminSeedController } from './seed/admin-seed.controller';
import { DemoSeeder } from './seed/demo-seeder';
import { SeedService } from './seed/seed.service';
import { SandboxesController } from './sandboxes/sandboxes.controller';
import { SandboxesService } from './sandboxes/sandboxes.service';
import { AdminTppsController } from './tpps/admin-tpps.controller';
import { AdminUsersController } from './users/admin-users.controller';
import { AdminUsersService } from './users/admin-users.service';

/**
 * The sandbox lifecycle (/sandboxes, contract §13), the console (GET /, contract §14), every /admin/* and /sandbox/* route (but the eid
 * simulator's), calling the owning libs' services;
 * the planned-downtime calendar and the retired-version table, as request gates.
 */
@Module({
  imports: [DirectoryModule, SavingsModule, EidModule, AuthModule, EnterpriseModule, SigningModule],
  controllers: [
    AdminUsersController,
    AdminPartnersController,
    AdminTppsController,
    AdminClockController,
    AdminJobsController,
    AdminSeedController,
    TestCertificateController,
    SandboxCertificatesController,
    AdminCertificatesController,
    MaintenanceWindowsController,
    SandboxesController,
    AdminRequestsController,
    SandboxRequestsController,
    AdminEidOrdersController,
    ConsoleController,
  ],
  providers: [SandboxesService, SandboxCertificatesService, AdminUsersService, AdminClockService, SeedService, DemoSeeder, TestCertificateService, DowntimeGate, DowntimeBookkeeping, RetiredVersionGate, RetiredVersionsOpenApi, JournalService, JournalReaderStrategy, ConsoleService],
  exports: [SeedService, AdminClockService, AdminUsersService],
})
export class SandboxModule {}
