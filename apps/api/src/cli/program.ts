import { Command, CommanderError } from 'commander';
import { addTransportOptions, type TransportOptions } from './admin-transport';
import { type CertOptions, certCommand } from './cert.command';
import type { CliIo } from './cli-io';
import { type ClockOutputOptions, clockCommands } from './clock.command';
import { requestsCommands, type TailRequestsOptions } from './requests.command';
import { type CreateSandboxOptions, type ListSandboxesOptions, type SandboxOutputOptions, sandboxesCommands } from './sandboxes.command';
import { seedCommand } from './seed.command';
import { type ListUsersOptions, type OpenAccountOptions, type OutputOptions, type PutUserOptions, usersCommands } from './users.command';

const TRANSPORT_HELP = `
Without --url (or SANDBOX_URL) the command opens the database of the environment (DATABASE_URL, else
the embedded database in DATA_DIR, default ./.data) and works while the sandbox is stopped. The
embedded database belongs to one process: while the sandbox runs on it, use --url with the admin key
(--admin-key or ADMIN_API_KEY).
--sandbox <id> works in that sandbox (contract §13) instead of the default one: on the database as
a request under /sandboxes/<id> would, with --url under that prefix (the operator key or the
sandbox's own admin key). A sandbox's base_url as --url names it too.`;

/** `npm run cli -- <command>`: every command of the sandbox's command line. */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  let exitCode = 0;
  const program = new Command()
    .name('npm run cli --')
    .description('Command line of the bank-API sandbox')
    .exitOverride()
    .showSuggestionAfterError()
    .configureOutput({ writeOut: io.out, writeErr: io.err })
    .addHelpText(
      'after',
      `
Examples:
  npm run cli -- seed fixture.json
  npm run cli -- cert --roles PSP_AI,PSP_PI --organization-id PSDSE-FINA-12345
  npm run cli -- clock advance 30m --url http://localhost:3000
  npm run cli -- users list
  npm run cli -- sandboxes create --name ci-run-4711
  npm run cli -- clock advance 1d --sandbox 3f2b8c1e-6a4d-4e8b-9c1a-2d5e7f9a0b13
  npm run cli -- requests tail --follow --url http://localhost:3000
  npm run cli -- <command> --help`,
    );

  addTransportOptions(
    program
      .command('seed')
      .description('Load a fixture file (users with accounts, partners, TPP settings), all or nothing: the format of POST /admin/seed')
      .argument('<file>', 'JSON fixture file'),
  )
    .addHelpText(
      'after',
      `
Progress goes to stderr ("users 120/500"), the summary and new partner keys to stdout.
${TRANSPORT_HELP}

Examples:
  npm run cli -- seed fixture.json
  npm run cli -- seed fixture.json --url http://localhost:3000 --admin-key local-admin-key-0123`,
    )
    .action(async (file: string, options: { url?: string; adminKey?: string }) => {
      exitCode = await seedCommand(file, options, io);
    });

  addTransportOptions(
    program
      .command('cert')
      .description('Mint a PSD2 test certificate offline; prints the X-PSD2-CLIENT-TEST-CERT value (Base64 DER)')
      .option('--roles <roles>', 'comma-separated PSD2 roles: PSP_AI, PSP_PI (may be empty)', 'PSP_AI,PSP_PI')
      .option('--organization-id <id>', 'organizationIdentifier of the TPP', 'PSDSE-SANDBOX-00000001')
      .option('--pem', 'print PEM instead of Base64 DER')
      .option('--out <file>', 'write to a file instead of standard output')
      .option('--pem-dir <dir>', 'strict mode (contract §16): issue a client certificate of the sandbox CA into this folder (cert.pem, key.pem, ca.pem, cert.p12); prints its serial')
      .option('--not-before <iso-time>', 'with --pem-dir: valid from (default: the sandbox clock\'s now minus an hour)')
      .option('--not-after <iso-time>', 'with --pem-dir: valid until (default: a year after the sandbox clock\'s now)'),
  )
    .addHelpText(
      'after',
      `
Examples:
  npm run cli -- cert --roles PSP_AI,PSP_PI --organization-id PSDSE-FINA-12345
  npm run cli -- cert --roles PSP_AI --pem --out tpp.pem
  CERT=$(npm run -s cli -- cert --roles PSP_AI,PSP_PI)     # then -H "X-PSD2-CLIENT-TEST-CERT: $CERT"
  npm run cli -- cert --roles PSP_AI --organization-id PSDSE-FINA-12345 --pem-dir ./tpp   # strict mode: curl --cert tpp/cert.pem --key tpp/key.pem --cacert tpp/ca.pem
  npm run cli -- cert --roles PSP_AI --pem-dir ./tpp --url http://localhost:3000 --admin-key local-admin-key-0123
--pem-dir with --url needs the sandbox's admin key or the operator key (--admin-key or ADMIN_API_KEY):
issuing an identity is the sandbox owner's (contract §16).
${TRANSPORT_HELP}`,
    )
    .action(async (options: CertOptions & TransportOptions) => {
      exitCode = await certCommand(options, io);
    });

  const clock = program
    .command('clock')
    .description('Show, set, advance or reset the sandbox clock that every time rule reads (contract §6)')
    .addHelpText(
      'after',
      `
The clock is kept in the database: every instance sees a change within a second.
${TRANSPORT_HELP}

Examples:
  npm run cli -- clock show
  npm run cli -- clock set 2026-11-24T10:00:00+01:00 --frozen
  npm run cli -- clock advance 30m --url http://localhost:3000
  npm run cli -- clock reset`,
    );
  const clockOutput = (command: Command) => addTransportOptions(command.option('--json', 'print the clock as JSON: {"now","frozen"}'));

  clockOutput(clock.command('show').description('Print the sandbox time and whether it is frozen'))
    .addHelpText('after', '\nPrints "<ISO time> frozen|running".\n\nExamples:\n  npm run cli -- clock show\n  npm run cli -- clock show --json --url http://localhost:3000')
    .action(async (options: ClockOutputOptions) => {
      exitCode = await clockCommands.show(options, io);
    });

  clockOutput(
    clock
      .command('set')
      .description('Set the sandbox time; it runs on from there, or stands still with --frozen')
      .argument('<iso-time>', 'ISO 8601 with a time-zone offset or Z, e.g. 2026-11-24T10:00:00+01:00')
      .option('--frozen', 'time stands still until moved'),
  )
    .addHelpText('after', '\nExamples:\n  npm run cli -- clock set 2026-11-24T10:00:00+01:00\n  npm run cli -- clock set 2026-12-24T09:00:00Z --frozen')
    .action(async (now: string, options: ClockOutputOptions & { frozen?: boolean }) => {
      exitCode = await clockCommands.set(now, options, io);
    });

  clockOutput(
    clock
      .command('advance')
      .description('Move the sandbox clock forward (a frozen clock stays frozen)')
      .argument('<duration>', 'seconds (90) or with units s, m, h, d, w: 90s, 30m, 2h, 1d, 1h30m'),
  )
    .addHelpText(
      'after',
      '\nExamples:\n  npm run cli -- clock advance 180          # 180 seconds: an eid order expires\n  npm run cli -- clock advance 30m          # a PSD2 access token expires\n  npm run cli -- clock advance 1d',
    )
    .action(async (duration: string, options: ClockOutputOptions) => {
      exitCode = await clockCommands.advance(duration, options, io);
    });

  clockOutput(clock.command('reset').description('Return the sandbox clock to real time'))
    .addHelpText('after', '\nExample:\n  npm run cli -- clock reset')
    .action(async (options: ClockOutputOptions) => {
      exitCode = await clockCommands.reset(options, io);
    });

  const users = program
    .command('users')
    .description('List, show, create or replace sandbox users (PSUs) and open their accounts (contract §4, §8)')
    .addHelpText(
      'after',
      `
Users are known by personal number: YYYYMMDDNNNC, or YYMMDD-NNNC / YYMMDD+NNNC. The admin API has no
deletion: replace a user with "users put" instead.
${TRANSPORT_HELP}

Examples:
  npm run cli -- users list
  npm run cli -- users show 191212121212
  npm run cli -- users put 199001011239 --name "Anna Andersson" --eid MANUAL
  npm run cli -- users open-account 199001011239 --name Lönekonto --currency SEK --balance 25000`,
    );
  const usersOutput = (command: Command) => addTransportOptions(command.option('--json', 'print the answer of the admin API as JSON'));

  usersOutput(
    users
      .command('list')
      .description('List users in personal-number order, with eid behaviour, KYC and number of accounts')
      .option('--limit <n>', 'users per page, 1 to 500 (default 100)')
      .option('--after <personal-number>', 'start after this personal number (the next page)'),
  )
    .addHelpText('after', '\nExamples:\n  npm run cli -- users list\n  npm run cli -- users list --limit 500 --after 199001011239\n  npm run cli -- users list --json --url http://localhost:3000')
    .action(async (options: ListUsersOptions) => {
      exitCode = await usersCommands.list(options, io);
    });

  usersOutput(users.command('show').description('Show a user with its settings and accounts').argument('<personal-number>'))
    .addHelpText('after', '\nExamples:\n  npm run cli -- users show 191212121212\n  npm run cli -- users show 121212-1212 --json')
    .action(async (personalNumber: string, options: OutputOptions) => {
      exitCode = await usersCommands.show(personalNumber, options, io);
    });

  usersOutput(
    users
      .command('put')
      .alias('add')
      .description('Create or replace a user (PUT semantics: settings not given take their defaults)')
      .argument('<personal-number>')
      .requiredOption('--name <name>', 'the name shown in the eid app')
      .option('--no-kyc', 'the user has not answered the know-your-customer questions (default: answered)')
      .option('--eid <behaviour>', 'AUTO_COMPLETE (default), MANUAL, NO_RESPONSE, COLLECT_ERROR or FAIL:<hint>, e.g. FAIL:USER_CANCEL')
      .option('--busy-elsewhere', 'the user has a signing open with another bank: partner signing starts are 409')
      .option('--credit-decision <decision>', 'force mortgage credit decisions: APPROVED or REJECTED'),
  )
    .addHelpText(
      'after',
      '\nExamples:\n  npm run cli -- users put 199001011239 --name "Anna Andersson"\n  npm run cli -- users add 199001011239 --name "Anna Andersson" --eid FAIL:USER_CANCEL --no-kyc\n  npm run cli -- users put 199001011239 --name "Anna Andersson" --credit-decision REJECTED --url http://localhost:3000',
    )
    .action(async (personalNumber: string, options: PutUserOptions) => {
      exitCode = await usersCommands.put(personalNumber, options, io);
    });

  usersOutput(
    users
      .command('open-account')
      .description('Open an account for a user (a valid account number is made when none is given)')
      .argument('<personal-number>')
      .requiredOption('--name <name>', 'account name, e.g. Lönekonto')
      .requiredOption('--currency <code>', 'ISO 4217 code, e.g. SEK')
      .requiredOption('--balance <amount>', 'at most two decimals, e.g. 25000.50')
      .option('--account-number <digits>', 'clearing and account number, 8 to 15 digits'),
  )
    .addHelpText('after', '\nExamples:\n  npm run cli -- users open-account 199001011239 --name Lönekonto --currency SEK --balance 25000\n  npm run cli -- users open-account 199001011239 --name Sparkonto --currency SEK --balance 0 --account-number 92500000019')
    .action(async (personalNumber: string, options: OpenAccountOptions) => {
      exitCode = await usersCommands.openAccount(personalNumber, options, io);
    });

  addSandboxesCommands(program, io, (code) => (exitCode = code));
  addRequestsCommands(program, io, (code) => (exitCode = code));

  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (error) {
    // Help asked for is 0; a usage error (unknown command or option, missing argument) is 2, as is
    // bad input to a command.
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    throw error;
  }
  return exitCode;
}

const LIFECYCLE_TRANSPORT_HELP = `
Without --url (or SANDBOX_URL) the command opens the database of the environment (DATABASE_URL, else
the embedded database in DATA_DIR) through the same service as the routes; base_url then names
localhost and PORT. With --url it calls POST/GET /sandboxes, GET/DELETE /sandboxes/<id> and
POST /sandboxes/<id>/reset with --admin-key (or ADMIN_API_KEY): the operator key, or for show,
reset and delete the sandbox's own admin key.`;

/** `sandboxes create|list|show|reset|delete`: the sandbox lifecycle of contract §13. */
function addSandboxesCommands(program: Command, io: CliIo, done: (exitCode: number) => void): void {
  const sandboxes = program
    .command('sandboxes')
    .description('Create, list, show, reset or delete sandboxes: isolated worlds with their own clock in one service (contract §13)')
    .addHelpText(
      'after',
      `
Every route is served under a sandbox's base_url (/sandboxes/<id>); the other commands work in one
with --sandbox <id>.
${LIFECYCLE_TRANSPORT_HELP}

Examples:
  npm run cli -- sandboxes create --name ci-run-4711 --clock-now 2026-11-24T10:00:00+01:00 --frozen
  npm run cli -- sandboxes list
  npm run cli -- sandboxes show 3f2b8c1e-6a4d-4e8b-9c1a-2d5e7f9a0b13
  npm run cli -- sandboxes reset 3f2b8c1e-6a4d-4e8b-9c1a-2d5e7f9a0b13
  npm run cli -- sandboxes delete 3f2b8c1e-6a4d-4e8b-9c1a-2d5e7f9a0b13`,
    );
  const output = (command: Command) => addTransportOptions(command.option('--json', 'print the answer of the lifecycle route as JSON'), { sandbox: false });

  output(
    sandboxes
      .command('create')
      .description('Create a sandbox; prints its id, base_url, admin key and demo partner key (the keys only now)')
      .requiredOption('--name <name>', '1 to 100 characters, e.g. ci-run-4711')
      .option('--no-seed-demo', 'start empty: no demo users and no demo partner (default: the demo set of contract §8)')
      .option('--demo-partner-key <key>', "the demo partner's api key, 16 to 512 visible ASCII characters (default: random)")
      .option('--downtime-calendar', 'planned downtime windows of bank §8 in this sandbox (default: the service\'s DOWNTIME_CALENDAR)')
      .option('--no-downtime-calendar', 'no planned downtime windows in this sandbox')
      .option('--clock-now <iso-time>', 'the sandbox clock at creation and after every reset, e.g. 2026-11-24T10:00:00+01:00 (default: real time)')
      .option('--frozen', 'with --clock-now: the clock stands still until moved')
      .option('--fixture <file>', 'a fixture file (the format of POST /admin/seed), loaded at creation and after every reset'),
  )
    .addHelpText(
      'after',
      `
Examples:
  npm run cli -- sandboxes create --name demo-anna
  npm run cli -- sandboxes create --name ci-run-4711 --no-seed-demo --fixture fixture.json --no-downtime-calendar
  npm run cli -- sandboxes create --name token-expiry --clock-now 2026-11-24T10:00:00+01:00 --frozen --json --url http://localhost:3000`,
    )
    .action(async (options: CreateSandboxOptions) => done(await sandboxesCommands.create(options, io)));

  output(
    sandboxes
      .command('list')
      .description('List the sandboxes in id order (the default sandbox too), never their keys')
      .option('--limit <n>', 'sandboxes per page, 1 to 500 (default 100)')
      .option('--after <sandbox-id>', 'start after this sandbox id (the next page)'),
  )
    .addHelpText('after', '\nExamples:\n  npm run cli -- sandboxes list\n  npm run cli -- sandboxes list --limit 500 --after 3f2b8c1e-6a4d-4e8b-9c1a-2d5e7f9a0b13\n  npm run cli -- sandboxes list --json --url http://localhost:3000')
    .action(async (options: ListSandboxesOptions) => done(await sandboxesCommands.list(options, io)));

  output(sandboxes.command('show').description('Show a sandbox: name, base_url, created and last used').argument('<sandbox-id>', 'its UUID, or default'))
    .addHelpText('after', '\nExamples:\n  npm run cli -- sandboxes show 3f2b8c1e-6a4d-4e8b-9c1a-2d5e7f9a0b13\n  npm run cli -- sandboxes show default --json')
    .action(async (sandboxId: string, options: SandboxOutputOptions) => done(await sandboxesCommands.show(sandboxId, options, io)));

  output(
    sandboxes
      .command('reset')
      .description('Reset a sandbox as newly created, in one transaction: data wiped, demo set and fixture seeded again, clock back to its creation setting; id and keys kept')
      .argument('<sandbox-id>', 'its UUID, or default'),
  )
    .addHelpText(
      'after',
      `
Without --url, resetting the default sandbox leaves its demo set to the service's next start
(SEED_DEMO), as with a fresh database.

Examples:
  npm run cli -- sandboxes reset 3f2b8c1e-6a4d-4e8b-9c1a-2d5e7f9a0b13
  npm run cli -- sandboxes reset default --url http://localhost:3000`,
    )
    .action(async (sandboxId: string, options: SandboxOutputOptions) => done(await sandboxesCommands.reset(sandboxId, options, io)));

  output(sandboxes.command('delete').description('Delete a sandbox and all its data (not the default sandbox)').argument('<sandbox-id>', 'its UUID'))
    .addHelpText('after', '\nExamples:\n  npm run cli -- sandboxes delete 3f2b8c1e-6a4d-4e8b-9c1a-2d5e7f9a0b13\n  npm run cli -- sandboxes delete 3f2b8c1e-6a4d-4e8b-9c1a-2d5e7f9a0b13 --url http://localhost:3000')
    .action(async (sandboxId: string, options: SandboxOutputOptions) => done(await sandboxesCommands.delete(sandboxId, options, io)));
}

/** `requests tail`: the request journal of contract §14 in the terminal. */
function addRequestsCommands(program: Command, io: CliIo, done: (exitCode: number) => void): void {
  const requests = program
    .command('requests')
    .description("Read a sandbox's request journal: what clients sent, what they were answered and the rule hints (contract §14)")
    .addHelpText('after', '\nExamples:\n  npm run cli -- requests tail --follow --url http://localhost:3000\n  npm run cli -- requests tail --caller tpp:PSDSE-FINA-12345 --limit 50');
  addTransportOptions(
    requests
      .command('tail')
      .description('Print the newest journal entries, one line each, oldest first; with --follow, then every new one until Ctrl-C')
      .option('--caller <kind[:id]>', 'only this caller: tpp, partner, end_user or anonymous, with its organization id, partner_id or personal number after a colon, e.g. tpp:PSDSE-FINA-12345')
      .option('--status <code>', 'only answers with this HTTP status, e.g. 401')
      .option('--path-prefix <path>', 'only paths that start with this, e.g. /psd2/')
      .option('--hint <code>', 'only entries with this hint, e.g. POLLED_TOO_FAST')
      .option('--limit <n>', 'how many of the newest entries to show first, 1 to 500', '20')
      .option('-f, --follow', 'keep polling (every second) and print each new entry once, until SIGINT or SIGTERM')
      .option('--json', 'print each entry as one line of JSON (the entries of GET /admin/requests)'),
  )
    .addHelpText(
      'after',
      `
A line: sandbox time (Stockholm), method, path, status, duration, caller, the reason code of a
refusal, then the hint codes:
  2026-11-24T10:05:12+01:00 GET /v2/accounts 401 3ms tpp:PSDSE-FINA-12345 UNAUTHORIZED [TOKEN_EXPIRED]
Entries are written up to a second after their answer (contract §14). --follow prints the entries
that arrive after the newest one shown, each once.
${TRANSPORT_HELP}

Examples:
  npm run cli -- requests tail --url http://localhost:3000
  npm run cli -- requests tail --follow --caller tpp:PSDSE-FINA-12345 --url http://localhost:3000
  npm run cli -- requests tail --hint POLLED_TOO_FAST --limit 100 --sandbox 3f2b8c1e-6a4d-4e8b-9c1a-2d5e7f9a0b13 --url http://localhost:3000
  npm run cli -- requests tail --status 401 --json`,
    )
    .action(async (options: TailRequestsOptions) => done(await requestsCommands.tail(options, io)));
}
