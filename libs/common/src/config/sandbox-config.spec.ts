import { InvalidConfiguration, SandboxConfig, validateEnvironment } from './sandbox-config';

const configOf = (env: Record<string, string>) => new SandboxConfig(validateEnvironment(env));

function problemsOf(env: Record<string, string>): string {
  try {
    validateEnvironment(env);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidConfiguration);
    return (error as Error).message;
  }
  throw new Error('expected the configuration to be refused');
}

describe('configuration (issue 2: validated once at boot)', () => {
  it('has the documented defaults', () => {
    expect({ ...configOf({}) }).toEqual({
      port: 3000,
      databaseUrl: undefined,
      dataDir: './.data',
      adminApiKey: undefined,
      downtimeCalendar: true,
      defaultSandboxUser: '191212121212',
      seedDemo: true,
      demoPartnerKey: undefined,
      sandboxMax: 10_000,
      sandboxSelfService: false,
      sandboxSelfServiceMax: 9_000,
      sandboxCreatePerHour: 10,
      sandboxIdleDays: 30,
      jobsIntervalMs: 5000,
      jobLeaseMs: 10_000,
      jobLeaseRenewMs: 3_000,
      preApprovalDecisionDelayS: 30,
      trustProxy: false,
      logLevel: 'info',
      journal: true,
      journalMaxEntries: 1000,
      journalDays: 7,
      tlsPort: undefined,
      tlsCert: undefined,
      tlsKey: undefined,
      tlsHostnames: [],
    });
  });

  it('reads every variable', () => {
    const config = configOf({
      PORT: '8080',
      DATABASE_URL: 'postgres://u:p@db:5432/sandbox',
      DATA_DIR: '/var/lib/sandbox',
      ADMIN_API_KEY: 'an-admin-key-long-enough',
      DOWNTIME_CALENDAR: 'off',
      DEFAULT_SANDBOX_USER: '198112189876',
      SEED_DEMO: 'false',
      DEMO_PARTNER_KEY: 'demo-partner-key-0000000',
      SANDBOX_MAX: '25',
      SANDBOX_SELF_SERVICE: 'on',
      SANDBOX_SELF_SERVICE_MAX: '20',
      SANDBOX_CREATE_PER_HOUR: '3',
      SANDBOX_IDLE_DAYS: '7',
      JOBS_INTERVAL_MS: '0',
      JOB_LEASE_MS: '4000',
      JOB_LEASE_RENEW_MS: '1000',
      PRE_APPROVAL_DECISION_DELAY_S: '5',
      TRUST_PROXY: 'on',
      LOG_LEVEL: 'debug',
      JOURNAL: 'off',
      JOURNAL_MAX_ENTRIES: '50',
      JOURNAL_DAYS: '2',
      TLS_PORT: '8443',
      TLS_CERT: '/etc/sandbox/server.pem',
      TLS_KEY: '/etc/sandbox/server.key',
      TLS_HOSTNAMES: 'sandbox.example.com, 10.0.0.5',
    });
    expect(config).toMatchObject({
      port: 8080,
      databaseUrl: 'postgres://u:p@db:5432/sandbox',
      dataDir: '/var/lib/sandbox',
      adminApiKey: 'an-admin-key-long-enough',
      downtimeCalendar: false,
      defaultSandboxUser: '198112189876',
      seedDemo: false,
      sandboxMax: 25,
      sandboxSelfService: true,
      sandboxSelfServiceMax: 20,
      sandboxCreatePerHour: 3,
      sandboxIdleDays: 7,
      jobsIntervalMs: 0,
      jobLeaseMs: 4000,
      jobLeaseRenewMs: 1000,
      preApprovalDecisionDelayS: 5,
      trustProxy: true,
      logLevel: 'debug',
      journal: false,
      journalMaxEntries: 50,
      journalDays: 2,
      tlsPort: 8443,
      tlsCert: '/etc/sandbox/server.pem',
      tlsKey: '/etc/sandbox/server.key',
      tlsHostnames: ['sandbox.example.com', '10.0.0.5'],
    });
  });

  it('treats an empty variable as unset', () => {
    expect(configOf({ DATABASE_URL: '', ADMIN_API_KEY: '' })).toMatchObject({ databaseUrl: undefined, adminApiKey: undefined });
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['DATABASE_URL', 'mysql://localhost/db'],
    ['ADMIN_API_KEY', 'short'],
    ['DOWNTIME_CALENDAR', 'sometimes'],
    ['DEFAULT_SANDBOX_USER', '12345'],
    ['DEFAULT_SANDBOX_USER', '191212121213'],
    ['SEED_DEMO', 'maybe'],
    ['DEMO_PARTNER_KEY', 'has spaces in it 123'],
    ['SANDBOX_MAX', '-1'],
    ['SANDBOX_MAX', 'many'],
    ['SANDBOX_SELF_SERVICE', 'sometimes'],
    ['SANDBOX_SELF_SERVICE_MAX', '-1'],
    ['SANDBOX_SELF_SERVICE_MAX', 'most'],
    ['SANDBOX_SELF_SERVICE_MAX', '10000'],
    ['SANDBOX_CREATE_PER_HOUR', '0'],
    ['SANDBOX_CREATE_PER_HOUR', 'ten'],
    ['SANDBOX_IDLE_DAYS', '0'],
    ['SANDBOX_IDLE_DAYS', 'a month'],
    ['JOBS_INTERVAL_MS', '-1'],
    ['JOB_LEASE_MS', '50'],
    ['JOB_LEASE_RENEW_MS', 'often'],
    ['PRE_APPROVAL_DECISION_DELAY_S', 'soon'],
    ['TRUST_PROXY', '2x'],
    ['LOG_LEVEL', 'loud'],
    ['JOURNAL', 'sometimes'],
    ['JOURNAL_MAX_ENTRIES', '0'],
    ['JOURNAL_MAX_ENTRIES', 'lots'],
    ['JOURNAL_DAYS', '0'],
    ['JOURNAL_DAYS', '1.5'],
    ['TLS_PORT', 'https'],
    ['TLS_PORT', '70000'],
    ['TLS_HOSTNAMES', 'a host, with spaces'],
  ])('stops start-up on %s=%p with a message that names it', (name, value) => {
    expect(problemsOf({ [name]: value })).toContain(name);
  });

  it('stops start-up when job leases would be renewed less than twice per lease (contract §6)', () => {
    expect(problemsOf({ JOB_LEASE_MS: '4000', JOB_LEASE_RENEW_MS: '3000' })).toContain('JOB_LEASE_RENEW_MS must be at most half of JOB_LEASE_MS');
  });

  it('contract §13 Self-service: SANDBOX_SELF_SERVICE_MAX is 90 % of SANDBOX_MAX unless set, and must leave the operator room (less than SANDBOX_MAX)', () => {
    expect(configOf({ SANDBOX_MAX: '25' }).sandboxSelfServiceMax).toBe(22);
    expect(configOf({ SANDBOX_MAX: '1' }).sandboxSelfServiceMax).toBe(0);
    expect(configOf({ SANDBOX_MAX: '0' }).sandboxSelfServiceMax).toBe(0);
    expect(configOf({ SANDBOX_MAX: '25', SANDBOX_SELF_SERVICE_MAX: '24' }).sandboxSelfServiceMax).toBe(24);
    expect(configOf({ SANDBOX_MAX: '25', SANDBOX_SELF_SERVICE_MAX: '' }).sandboxSelfServiceMax).toBe(22);
    expect(problemsOf({ SANDBOX_MAX: '25', SANDBOX_SELF_SERVICE_MAX: '25' })).toContain('SANDBOX_SELF_SERVICE_MAX must be less than SANDBOX_MAX');
    expect(problemsOf({ SANDBOX_MAX: '0', SANDBOX_SELF_SERVICE_MAX: '1' })).toContain('SANDBOX_SELF_SERVICE_MAX must be less than SANDBOX_MAX');
  });

  it('stops start-up on TLS_CERT without TLS_KEY, or the reverse (contract §16)', () => {
    expect(problemsOf({ TLS_CERT: '/etc/server.pem' })).toContain('TLS_CERT and TLS_KEY go together');
    expect(problemsOf({ TLS_KEY: '/etc/server.key' })).toContain('TLS_CERT and TLS_KEY go together');
  });

  it('names every bad variable at once and never echoes a key', () => {
    const message = problemsOf({ PORT: 'x', LOG_LEVEL: 'loud', ADMIN_API_KEY: 'secret1' });
    expect(message).toContain('PORT');
    expect(message).toContain('LOG_LEVEL');
    expect(message).toContain('ADMIN_API_KEY');
    expect(message).not.toContain('secret1');
  });
});
