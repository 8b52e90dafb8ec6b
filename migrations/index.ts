import { CommonCreateClockAndJobLeases1763800000000 } from './1763800000000-CommonCreateClockAndJobLeases';
import { DirectoryCreateUsersPartnersTpps1763800000100 } from './1763800000100-DirectoryCreateUsersPartnersTpps';
import { SavingsCreateAccounts1763800000200 } from './1763800000200-SavingsCreateAccounts';
import { SandboxCreateMeta1763800000300 } from './1763800000300-SandboxCreateMeta';
import { EidCreateOrders1763800001000 } from './1763800001000-EidCreateOrders';
import { AuthCreatePsd2Tables1763800002000 } from './1763800002000-AuthCreatePsd2Tables';
import { SavingsCreateTransfers1763800003000 } from './1763800003000-SavingsCreateTransfers';
import { SigningCreateParticipants1763800004000 } from './1763800004000-SigningCreateParticipants';
import { MortgageCreatePreApprovalsAndLoanApplications1763800005000 } from './1763800005000-MortgageCreatePreApprovalsAndLoanApplications';
import { EnterpriseCreateTokens1763800006000 } from './1763800006000-EnterpriseCreateTokens';
import { SandboxCreateMaintenanceWindowEvents1763800007000 } from './1763800007000-SandboxCreateMaintenanceWindowEvents';
import { SecretsHashPendingCodesAndAutostartTokens1763800013400 } from './1763800013400-SecretsHashPendingCodesAndAutostartTokens';
import { SandboxesChangeFeed1763800020000 } from './1763800020000-SandboxesChangeFeed';
import { SandboxesKeysAndSettings1763800016000 } from './1763800016000-SandboxesKeysAndSettings';
import { SandboxesScopeEveryTable1763800015000 } from './1763800015000-SandboxesScopeEveryTable';
import { JobsDueWorkAcrossSandboxes1763800017000 } from './1763800017000-JobsDueWorkAcrossSandboxes';
import { SandboxesForeignKeysIncludeSandbox1763800018000 } from './1763800018000-SandboxesForeignKeysIncludeSandbox';
import { SandboxesCreationLog1763800019000 } from './1763800019000-SandboxesCreationLog';
import { JournalCreateEntries1763800030000 } from './1763800030000-JournalCreateEntries';
import { EidRecordFinalReported1763800031000 } from './1763800031000-EidRecordFinalReported';
import { IdempotencyCreateRecords1763800032000 } from './1763800032000-IdempotencyCreateRecords';
import { DirectoryCreateSandboxCa1763800040000 } from './1763800040000-DirectoryCreateSandboxCa';
import { JournalJsonColumns1763800050000 } from './1763800050000-JournalJsonColumns';
import { JournalRowsCheckedPerBatch1763800060000 } from './1763800060000-JournalRowsCheckedPerBatch';
import { SigningIndexParticipantCurrentOrder1763800064000 } from './1763800064000-SigningIndexParticipantCurrentOrder';
import { JournalArrivalOrder1764100000000 } from './1764100000000-JournalArrivalOrder';
import { SandboxesReservedBeforeSeeding1764100001000 } from './1764100001000-SandboxesReservedBeforeSeeding';
import { TokensBoundToClientCertificates1764200000000 } from './1764200000000-TokensBoundToClientCertificates';
import { SavingsBookedEntriesOutliveTheirTransfer1764400000000 } from './1764400000000-SavingsBookedEntriesOutliveTheirTransfer';

/** Every migration, in order. Imported as classes (no globs) so that the build emits them as files. */
export const MIGRATIONS = [
  CommonCreateClockAndJobLeases1763800000000,
  DirectoryCreateUsersPartnersTpps1763800000100,
  SavingsCreateAccounts1763800000200,
  SandboxCreateMeta1763800000300,
  EidCreateOrders1763800001000,
  AuthCreatePsd2Tables1763800002000,
  SavingsCreateTransfers1763800003000,
  SigningCreateParticipants1763800004000,
  MortgageCreatePreApprovalsAndLoanApplications1763800005000,
  EnterpriseCreateTokens1763800006000,
  SandboxCreateMaintenanceWindowEvents1763800007000,
  SecretsHashPendingCodesAndAutostartTokens1763800013400,
  SandboxesScopeEveryTable1763800015000,
  SandboxesKeysAndSettings1763800016000,
  JobsDueWorkAcrossSandboxes1763800017000,
  SandboxesForeignKeysIncludeSandbox1763800018000,
  SandboxesCreationLog1763800019000,
  SandboxesChangeFeed1763800020000,
  JournalCreateEntries1763800030000,
  EidRecordFinalReported1763800031000,
  IdempotencyCreateRecords1763800032000,
  DirectoryCreateSandboxCa1763800040000,
  JournalJsonColumns1763800050000,
  JournalRowsCheckedPerBatch1763800060000,
  SigningIndexParticipantCurrentOrder1763800064000,
  JournalArrivalOrder1764100000000,
  SandboxesReservedBeforeSeeding1764100001000,
  TokensBoundToClientCertificates1764200000000,
  SavingsBookedEntriesOutliveTheirTransfer1764400000000,
];
