import { Global, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_PIPE, DiscoveryModule } from '@nestjs/core';
import { ScheduleModule } from '@nestjs/schedule';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccessGuard } from './access/access.guard';
import { AccessPolicyCheck } from './access/access-policy.check';
import { AccessStrategyRegistry } from './access/access-strategy.registry';
import { AdminAccessStrategy } from './access/admin-key.strategy';
import { Clock } from './clock/clock';
import { ClockRepository } from './clock/clock.repository';
import { SandboxClock } from './clock/sandbox-clock';
import { SandboxClockEntity } from './clock/sandbox-clock.entity';
import { SandboxDb } from './sandbox/sandbox-db';
import { SandboxChanges } from './sandbox/sandbox-changes';
import { SandboxRegistry } from './sandbox/sandbox-registry';
import { SandboxLifecycleRace } from './sandbox/sandbox-lifecycle-race';
import { SandboxCreationLog } from './sandbox/sandbox-creation-log';
import { ProblemDetailsFilter } from './errors/problem-details.filter';
import { StrictValidationPipe } from './errors/validation.pipe';
import { DatabaseHealth } from './health/database-health';
import { OpenApiDocument } from './openapi/openapi';
import { HealthController } from './health/health.controller';
import { HeaderInputGuard } from './http/header-input.guard';
import { BodyShapeGuard } from './http/input-limits';
import { RequestGates } from './http/request-gates';
import { JobLeaseRepository } from './jobs/job-lease.repository';
import { JobRegistry } from './jobs/job.registry';
import { JobRunner } from './jobs/job-runner';
import { JobsDb } from './jobs/jobs-db';
import { PersonalNumberPipe, PersonalNumberReader } from './values/personal-number.pipe';
import { JournalCertificates } from './journal/journal-certificates';
import { JournalRecorder } from './journal/journal-recorder';
import { JournalRepository } from './journal/journal.repository';
import { JournalRetentionJob } from './journal/journal-retention.job';
import { JournalStore } from './journal/journal-store';
import { JournalWriter } from './journal/journal-writer';
import { IdempotencyExpiryJob } from './idempotency/idempotency-expiry.job';
import { IdempotencyStore } from './idempotency/idempotency.store';

/**
 * The shared kernel every lib relies on: the sandbox data access (SandboxDb), the sandbox clock, the job runner, the deny-by-default
 * guard with the admin policy, the problem-details filter, the strict validation pipe, the request journal (contract §14) and health.
 * Needs SandboxConfigModule, LoggingModule and DatabaseModule beside it (AppModule wires them).
 */
@Global()
@Module({
  imports: [ScheduleModule.forRoot(), DiscoveryModule, TypeOrmModule.forFeature([SandboxClockEntity])],
  controllers: [HealthController],
  providers: [
    SandboxDb,
    SandboxChanges,
    SandboxRegistry,
    SandboxLifecycleRace,
    SandboxCreationLog,
    ClockRepository,
    SandboxClock,
    { provide: Clock, useExisting: SandboxClock },
    JobRegistry,
    JobLeaseRepository,
    JobsDb,
    JobRunner,
    AccessStrategyRegistry,
    AccessPolicyCheck,
    AdminAccessStrategy,
    DatabaseHealth,
    OpenApiDocument,
    RequestGates,
    PersonalNumberReader,
    PersonalNumberPipe,
    JournalStore,
    JournalWriter,
    JournalCertificates,
    JournalRecorder,
    JournalRepository,
    JournalRetentionJob,
    IdempotencyStore,
    IdempotencyExpiryJob,
    { provide: APP_GUARD, useClass: AccessGuard },
    // After the credentials, before every other check of the input: bounded work (contract §2, §1 order).
    { provide: APP_GUARD, useClass: BodyShapeGuard },
    // After the credentials: the header checks (contract §1 order).
    { provide: APP_GUARD, useClass: HeaderInputGuard },
    { provide: APP_FILTER, useClass: ProblemDetailsFilter },
    { provide: APP_PIPE, useClass: StrictValidationPipe },
  ],
  exports: [SandboxDb, SandboxRegistry, SandboxCreationLog, OpenApiDocument, RequestGates, Clock, SandboxClock, JobRegistry, JobRunner, AccessStrategyRegistry, PersonalNumberReader, PersonalNumberPipe,
    JournalWriter, JournalCertificates, JournalRecorder, JournalRepository,
    // For IdempotencyInterceptor, which `@Idempotent()` binds on routes of every module.
    IdempotencyStore],
})
export class CommonModule {}
