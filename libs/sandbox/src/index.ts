export { SandboxModule } from './sandbox.module';
export { SeedService } from './seed/seed.service';
export type { SeedProgress, SeedProgressListener } from './seed/seed.service';
export { SeedFixtureDto } from './seed/seed.dto';
export type { SeedResultDto } from './seed/seed.dto';
// The admin use cases, for the command line's database transport (the same services the /admin routes call).
export { AdminClockService } from './clock/admin-clock.service';
export { AdvanceClockDto, SetClockDto } from './clock/clock.dto';
export type { ClockResponseDto } from './clock/clock.dto';
export { AdminUsersService } from './users/admin-users.service';
export { ListUsersQueryDto, OpenAccountDto, PutUserDto } from './users/user.dto';
export type { UserListDto, UserResponseDto, UserSummaryDto } from './users/user.dto';
export { DemoSeeder, DEMO_PARTNER_KEY_FILE } from './seed/demo-seeder';
// The sandbox lifecycle (contract §13), for the command line and tests.
export { SandboxesService } from './sandboxes/sandboxes.service';
// Strict mode's client certificates (contract §16), for the command line.
export { SandboxCertificatesService } from './certificates/sandbox-certificates.service';
export { IssueCertificateDto, IssuedCertificateDto } from './certificates/sandbox-certificates.dto';
export { CreateSandboxDto, SandboxCreatedDto, SandboxDto, SandboxListDto, ListSandboxesQueryDto } from './sandboxes/sandbox.dto';
// The request journal (contract §14), for the command line's `requests tail` on the database.
export { JournalService } from './journal/journal.service';
export { JournalQueryDto } from './journal/journal.dto';
export type { JournalEntryDto, JournalPageDto } from './journal/journal.dto';
