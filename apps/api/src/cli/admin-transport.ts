import type { Command } from 'commander';
import { type AdminClient, AdminRequestFailed, CliUsageError } from './admin-client';
import type { CliIo } from './cli-io';
import { DatabaseAdminClient } from './database-admin-client';
import { HttpAdminClient } from './http-admin-client';

export interface TransportOptions {
  url?: string;
  adminKey?: string;
}

/** The one way every admin command (seed, clock, users) chooses its transport: --url/--admin-key. */
export function addTransportOptions(command: Command): Command {
  return command
    .option('--url <base-url>', 'talk to a running sandbox\'s admin API (default: SANDBOX_URL); without it, open the database of the environment (DATABASE_URL or DATA_DIR)')
    .option('--admin-key <key>', 'admin key for --url (default: ADMIN_API_KEY)');
}

/**
 * Runs `work` with the client the options choose, then closes it. Errors become a message on stderr
 * and the exit code: 2 for bad input or usage, 1 for a refusal, an unreachable sandbox or a locked
 * database.
 */
export async function withAdminClient(options: TransportOptions, io: CliIo, work: (client: AdminClient) => Promise<number>): Promise<number> {
  let client: AdminClient | undefined;
  try {
    client = openAdminClient(options, io);
    return await work(client);
  } catch (error) {
    if (error instanceof AdminRequestFailed || error instanceof CliUsageError) {
      io.err(`${error.message}\n`);
      return error.exitCode;
    }
    throw error;
  } finally {
    await client?.close();
  }
}

function openAdminClient(options: TransportOptions, io: CliIo): AdminClient {
  const url = options.url ?? (io.env.SANDBOX_URL || undefined);
  if (!url) return new DatabaseAdminClient(io);
  const adminKey = options.adminKey ?? (io.env.ADMIN_API_KEY || undefined);
  if (!adminKey) throw new CliUsageError(`Talking to ${url} needs the admin key: --admin-key or ADMIN_API_KEY.`);
  if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) {
    throw new CliUsageError(`--url must be the sandbox's base URL, e.g. http://localhost:3000 (got ${JSON.stringify(url)}).`);
  }
  return new HttpAdminClient(url, adminKey);
}
