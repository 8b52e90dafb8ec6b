import { plainToInstance, Transform } from 'class-transformer';
import { isValidTwelveDigits } from '../values/personal-number';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min, MinLength, validateSync } from 'class-validator';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

const ON = ['on', 'true', '1', 'yes'];
const OFF = ['off', 'false', '0', 'no'];

/** "on"/"off" (also true/false, 1/0, yes/no) → boolean; anything else stays as text and fails @IsBoolean. */
const toSwitch = ({ value }: { value: unknown }) => {
  const text = String(value).trim().toLowerCase();
  if (ON.includes(text)) return true;
  if (OFF.includes(text)) return false;
  return value;
};
const toInteger = ({ value }: { value: unknown }) => (/^\s*-?\d+\s*$/.test(String(value)) ? Number(value) : value);
/** An empty variable counts as unset. */
const blankToUndefined = ({ value }: { value: unknown }) => (value === '' ? undefined : value);

/**
 * Every environment variable the service reads, validated once at boot. Libs receive the typed
 * SandboxConfig through DI and never read process.env.
 */
export class SandboxEnvironment {
  @Transform(toInteger)
  @IsInt({ message: 'PORT must be an integer between 0 and 65535' })
  @Min(0, { message: 'PORT must be an integer between 0 and 65535' })
  @Max(65535, { message: 'PORT must be an integer between 0 and 65535' })
  PORT: number = 3000;

  // Strict mode (contract §16): the HTTPS listener with client certificates; unset, it is off.
  @Transform((params) => toInteger({ value: blankToUndefined(params) }))
  @IsOptional()
  @IsInt({ message: 'TLS_PORT must be an integer between 0 and 65535' })
  @Min(0, { message: 'TLS_PORT must be an integer between 0 and 65535' })
  @Max(65535, { message: 'TLS_PORT must be an integer between 0 and 65535' })
  TLS_PORT?: number;

  @Transform(blankToUndefined)
  @IsOptional()
  @IsString()
  @MinLength(1, { message: 'TLS_CERT must be the path of a PEM certificate file' })
  TLS_CERT?: string;

  @Transform(blankToUndefined)
  @IsOptional()
  @IsString()
  @MinLength(1, { message: 'TLS_KEY must be the path of a PEM private key file' })
  TLS_KEY?: string;

  @Transform(blankToUndefined)
  @IsOptional()
  @Matches(/^\s*[A-Za-z0-9.:-]+(\s*,\s*[A-Za-z0-9.:-]+)*\s*$/, { message: 'TLS_HOSTNAMES must be a comma-separated list of host names or IP addresses' })
  TLS_HOSTNAMES?: string;

  @Transform(blankToUndefined)
  @IsOptional()
  @Matches(/^postgres(ql)?:\/\/\S+$/, { message: 'DATABASE_URL must be a postgres:// or postgresql:// URL' })
  DATABASE_URL?: string;

  @IsString()
  @MinLength(1, { message: 'DATA_DIR must be a directory path (or memory:// for a throwaway database)' })
  DATA_DIR: string = './.data';

  @Transform(blankToUndefined)
  @IsOptional()
  @IsString()
  @MinLength(16, { message: 'ADMIN_API_KEY must be at least 16 characters long' })
  @MaxLength(512, { message: 'ADMIN_API_KEY must be at most 512 characters long' })
  ADMIN_API_KEY?: string;

  @Transform(toSwitch)
  @IsBoolean({ message: 'DOWNTIME_CALENDAR must be on or off' })
  DOWNTIME_CALENDAR: boolean = true;

  @Matches(/^\d{12}$/, { message: 'DEFAULT_SANDBOX_USER must be a 12-digit personal number YYYYMMDDNNNC' })
  DEFAULT_SANDBOX_USER: string = '191212121212';

  @Transform(toSwitch)
  @IsBoolean({ message: 'SEED_DEMO must be on or off' })
  SEED_DEMO: boolean = true;

  @Transform(blankToUndefined)
  @IsOptional()
  @Matches(/^[\x21-\x7e]{16,512}$/, { message: 'DEMO_PARTNER_KEY must be 16 to 512 visible ASCII characters' })
  DEMO_PARTNER_KEY?: string;

  @Transform(toInteger)
  @IsInt({ message: 'SANDBOX_MAX must be an integer from 0 to 1000000 (created sandboxes; the default one does not count)' })
  @Min(0, { message: 'SANDBOX_MAX must be an integer from 0 to 1000000 (created sandboxes; the default one does not count)' })
  @Max(1_000_000, { message: 'SANDBOX_MAX must be an integer from 0 to 1000000 (created sandboxes; the default one does not count)' })
  SANDBOX_MAX: number = 10_000;

  @Transform(toSwitch)
  @IsBoolean({ message: 'SANDBOX_SELF_SERVICE must be on or off' })
  SANDBOX_SELF_SERVICE: boolean = false;

  // Unset: 90 % of SANDBOX_MAX (contract §13: the operator keeps the rest).
  @Transform(({ value }: { value: unknown }) => (value === '' ? undefined : toInteger({ value })))
  @IsOptional()
  @IsInt({ message: 'SANDBOX_SELF_SERVICE_MAX must be an integer from 0 to 1000000 (sandboxes self-service creations may fill)' })
  @Min(0, { message: 'SANDBOX_SELF_SERVICE_MAX must be an integer from 0 to 1000000 (sandboxes self-service creations may fill)' })
  @Max(1_000_000, { message: 'SANDBOX_SELF_SERVICE_MAX must be an integer from 0 to 1000000 (sandboxes self-service creations may fill)' })
  SANDBOX_SELF_SERVICE_MAX?: number;

  @Transform(toInteger)
  @IsInt({ message: 'SANDBOX_CREATE_PER_HOUR must be an integer from 1 to 100000 (self-service creations per caller IP an hour)' })
  @Min(1, { message: 'SANDBOX_CREATE_PER_HOUR must be an integer from 1 to 100000 (self-service creations per caller IP an hour)' })
  @Max(100_000, { message: 'SANDBOX_CREATE_PER_HOUR must be an integer from 1 to 100000 (self-service creations per caller IP an hour)' })
  SANDBOX_CREATE_PER_HOUR: number = 10;
  // Real days since a sandbox's last request; the default sandbox is never deleted (contract §13 Lifecycle).
  @Transform(toInteger)
  @IsInt({ message: 'SANDBOX_IDLE_DAYS must be an integer from 1 to 36500 (real days)' })
  @Min(1, { message: 'SANDBOX_IDLE_DAYS must be an integer from 1 to 36500 (real days)' })
  @Max(36_500, { message: 'SANDBOX_IDLE_DAYS must be an integer from 1 to 36500 (real days)' })
  SANDBOX_IDLE_DAYS: number = 30;

  @Transform(toInteger)
  @IsInt({ message: 'JOBS_INTERVAL_MS must be an integer (milliseconds; 0 turns the schedule off)' })
  @Min(0, { message: 'JOBS_INTERVAL_MS must not be negative' })
  JOBS_INTERVAL_MS: number = 5000;

  // A job's lease is short and renewed while the job runs, so a crashed holder's lease is overtaken
  // within seconds (contract §6) while a long run is never taken over by another instance.
  @Transform(toInteger)
  @IsInt({ message: 'JOB_LEASE_MS must be an integer (milliseconds)' })
  @Min(100, { message: 'JOB_LEASE_MS must be at least 100' })
  JOB_LEASE_MS: number = 10_000;

  @Transform(toInteger)
  @IsInt({ message: 'JOB_LEASE_RENEW_MS must be an integer (milliseconds)' })
  @Min(10, { message: 'JOB_LEASE_RENEW_MS must be at least 10' })
  JOB_LEASE_RENEW_MS: number = 3_000;

  @Transform(toInteger)
  @IsInt({ message: 'PRE_APPROVAL_DECISION_DELAY_S must be an integer number of seconds' })
  @Min(0, { message: 'PRE_APPROVAL_DECISION_DELAY_S must not be negative' })
  PRE_APPROVAL_DECISION_DELAY_S: number = 30;

  @Transform(toSwitch)
  @IsBoolean({ message: 'TRUST_PROXY must be on or off' })
  TRUST_PROXY: boolean = false;

  @IsIn(LOG_LEVELS, { message: `LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}` })
  LOG_LEVEL: LogLevel = 'info';

  @Transform(toSwitch)
  @IsBoolean({ message: 'JOURNAL must be on or off' })
  JOURNAL: boolean = true;

  @Transform(toInteger)
  @IsInt({ message: 'JOURNAL_MAX_ENTRIES must be an integer from 1 to 1000000 (entries kept per sandbox)' })
  @Min(1, { message: 'JOURNAL_MAX_ENTRIES must be an integer from 1 to 1000000 (entries kept per sandbox)' })
  @Max(1_000_000, { message: 'JOURNAL_MAX_ENTRIES must be an integer from 1 to 1000000 (entries kept per sandbox)' })
  JOURNAL_MAX_ENTRIES: number = 1000;

  @Transform(toInteger)
  @IsInt({ message: 'JOURNAL_DAYS must be an integer from 1 to 3650 (real days an entry is kept)' })
  @Min(1, { message: 'JOURNAL_DAYS must be an integer from 1 to 3650 (real days an entry is kept)' })
  @Max(3650, { message: 'JOURNAL_DAYS must be an integer from 1 to 3650 (real days an entry is kept)' })
  JOURNAL_DAYS: number = 7;
}

export class InvalidConfiguration extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration: ${problems.join('; ')}`);
    this.name = 'InvalidConfiguration';
  }
}

const KNOWN = new Set(
  Object.keys(new SandboxEnvironment()).concat(['DATABASE_URL', 'ADMIN_API_KEY', 'DEMO_PARTNER_KEY', 'SANDBOX_SELF_SERVICE_MAX', 'TLS_PORT', 'TLS_CERT', 'TLS_KEY', 'TLS_HOSTNAMES']),
);

/** Validates the environment; throws InvalidConfiguration naming every bad variable. */
export function validateEnvironment(raw: Record<string, unknown>): SandboxEnvironment {
  const known = Object.fromEntries(Object.entries(raw).filter(([key, value]) => KNOWN.has(key) && value !== undefined));
  const env = plainToInstance(SandboxEnvironment, known, { exposeDefaultValues: true });
  const problems = validateSync(env, { stopAtFirstError: true }).map(
    (e) => `${Object.values(e.constraints ?? {}).join(', ')} (got ${JSON.stringify(mask(e.property, raw[e.property]))})`,
  );
  if (!problems.some((p) => p.startsWith('DEFAULT_SANDBOX_USER')) && !isValidTwelveDigits(env.DEFAULT_SANDBOX_USER)) {
    problems.push(`DEFAULT_SANDBOX_USER must be a valid personal number (got ${JSON.stringify(env.DEFAULT_SANDBOX_USER)})`);
  }
  // Renewals must come several times within a lease, or one slow round trip loses it.
  if (!problems.some((p) => p.startsWith('JOB_LEASE')) && env.JOB_LEASE_RENEW_MS * 2 > env.JOB_LEASE_MS) {
    problems.push(`JOB_LEASE_RENEW_MS must be at most half of JOB_LEASE_MS (got ${env.JOB_LEASE_RENEW_MS} and ${env.JOB_LEASE_MS})`);
  }
  // The operator can always create (contract §13): self-service leaves room under SANDBOX_MAX.
  if (!problems.some((p) => p.startsWith('SANDBOX_')) && env.SANDBOX_SELF_SERVICE_MAX !== undefined && env.SANDBOX_SELF_SERVICE_MAX > Math.max(0, env.SANDBOX_MAX - 1)) {
    problems.push(
      `SANDBOX_SELF_SERVICE_MAX must be less than SANDBOX_MAX, so the operator can always create (got ${env.SANDBOX_SELF_SERVICE_MAX} and ${env.SANDBOX_MAX})`,
    );
  }
  if ((env.TLS_CERT === undefined) !== (env.TLS_KEY === undefined)) {
    problems.push('TLS_CERT and TLS_KEY go together: give both (the server certificate and its key) or neither (one issued by the sandbox CA)');
  }
  if (problems.length > 0) throw new InvalidConfiguration(problems);
  return env;
}

function mask(name: string, value: unknown): unknown {
  return /KEY/.test(name) && typeof value === 'string' ? `${value.length} characters` : value;
}

/** The typed configuration every module receives through DI. */
export class SandboxConfig {
  readonly port: number;
  /** Unset: the embedded PostgreSQL under dataDir. */
  readonly databaseUrl: string | undefined;
  /** `memory://` keeps the embedded database in memory (tests, throwaway instances). */
  readonly dataDir: string;
  /** Unset: every /admin route answers 403. */
  readonly adminApiKey: string | undefined;
  readonly downtimeCalendar: boolean;
  readonly defaultSandboxUser: string;
  readonly seedDemo: boolean;
  readonly demoPartnerKey: string | undefined;
  /** How many sandboxes POST /sandboxes may create (contract §13); the default one does not count. */
  readonly sandboxMax: number;
  /** POST /sandboxes without a key, rate limited per caller (contract §13 Self-service). */
  readonly sandboxSelfService: boolean;
  /** How many of the sandboxes self-service creations may fill (default 90 % of sandboxMax), so the operator can always create. */
  readonly sandboxSelfServiceMax: number;
  readonly sandboxCreatePerHour: number;
  /** A created sandbox unused this many real days is deleted by the scheduled jobs. */
  readonly sandboxIdleDays: number;
  /** 0: no schedule; jobs run only through POST /admin/jobs/run. */
  readonly jobsIntervalMs: number;
  /** How long a job claim holds unless renewed, and how often its holder renews it while the job runs. */
  readonly jobLeaseMs: number;
  readonly jobLeaseRenewMs: number;
  readonly preApprovalDecisionDelayS: number;
  readonly trustProxy: boolean;
  readonly logLevel: LogLevel;
  /** The request journal and its hints (contract §14); off records nothing and raises no hint. */
  readonly journal: boolean;
  /** Journal entries kept per sandbox, and for how many real days at most. */
  readonly journalMaxEntries: number;
  readonly journalDays: number;
  /** Strict mode's HTTPS listener (contract §16); undefined: off. */
  readonly tlsPort: number | undefined;
  /** PEM files of the TLS server certificate and key; unset: one issued at start by the sandbox CA. */
  readonly tlsCert: string | undefined;
  readonly tlsKey: string | undefined;
  /** Names the issued server certificate covers besides localhost and 127.0.0.1. */
  readonly tlsHostnames: string[];

  constructor(env: SandboxEnvironment) {
    this.port = env.PORT;
    this.databaseUrl = env.DATABASE_URL;
    this.dataDir = env.DATA_DIR;
    this.adminApiKey = env.ADMIN_API_KEY;
    this.downtimeCalendar = env.DOWNTIME_CALENDAR;
    this.defaultSandboxUser = env.DEFAULT_SANDBOX_USER;
    this.seedDemo = env.SEED_DEMO;
    this.demoPartnerKey = env.DEMO_PARTNER_KEY;
    this.sandboxMax = env.SANDBOX_MAX;
    this.sandboxSelfService = env.SANDBOX_SELF_SERVICE;
    this.sandboxSelfServiceMax = env.SANDBOX_SELF_SERVICE_MAX ?? Math.floor(env.SANDBOX_MAX * 0.9);
    this.sandboxCreatePerHour = env.SANDBOX_CREATE_PER_HOUR;
    this.sandboxIdleDays = env.SANDBOX_IDLE_DAYS;
    this.jobsIntervalMs = env.JOBS_INTERVAL_MS;
    this.jobLeaseMs = env.JOB_LEASE_MS;
    this.jobLeaseRenewMs = env.JOB_LEASE_RENEW_MS;
    this.preApprovalDecisionDelayS = env.PRE_APPROVAL_DECISION_DELAY_S;
    this.trustProxy = env.TRUST_PROXY;
    this.logLevel = env.LOG_LEVEL;
    this.journal = env.JOURNAL;
    this.journalMaxEntries = env.JOURNAL_MAX_ENTRIES;
    this.journalDays = env.JOURNAL_DAYS;
    this.tlsPort = env.TLS_PORT;
    this.tlsCert = env.TLS_CERT;
    this.tlsKey = env.TLS_KEY;
    this.tlsHostnames = (env.TLS_HOSTNAMES ?? '').split(',').map((name) => name.trim()).filter(Boolean);
  }

  get embeddedInMemory(): boolean {
    return !this.databaseUrl && this.dataDir === 'memory://';
  }
}
