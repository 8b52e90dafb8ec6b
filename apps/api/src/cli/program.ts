import { Command, CommanderError } from 'commander';
import { certCommand } from './cert.command';
import type { CliIo } from './cli-io';
import { seedCommand } from './seed.command';

/** `npm run cli -- <command>`: every command of the sandbox's command line. */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  let exitCode = 0;
  const program = new Command()
    .name('npm run cli --')
    .description('Command line of the bank-API sandbox')
    .exitOverride()
    .configureOutput({ writeOut: io.out, writeErr: io.err });

  program
    .command('seed')
    .description('Load a fixture file (users with accounts, partners, TPP settings): the format of POST /admin/seed')
    .argument('<file>', 'JSON fixture file')
    .option('--url <base-url>', 'post it to a running sandbox instead of opening the database')
    .option('--admin-key <key>', 'admin key for --url (default: ADMIN_API_KEY)')
    .action(async (file: string, options: { url?: string; adminKey?: string }) => {
      exitCode = await seedCommand(file, options, io);
    });

  program
    .command('cert')
    .description('Mint a PSD2 test certificate offline; prints the X-PSD2-CLIENT-TEST-CERT value (Base64 DER)')
    .option('--roles <roles>', 'comma-separated PSD2 roles: PSP_AI, PSP_PI (may be empty)', 'PSP_AI,PSP_PI')
    .option('--organization-id <id>', 'organizationIdentifier of the TPP', 'PSDSE-SANDBOX-00000001')
    .option('--pem', 'print PEM instead of Base64 DER')
    .option('--out <file>', 'write to a file instead of standard output')
    .action(async (options: { roles: string; organizationId: string; pem?: boolean; out?: string }) => {
      exitCode = await certCommand(options, io);
    });

  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode;
    throw error;
  }
  return exitCode;
}
