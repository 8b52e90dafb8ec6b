import type { Command } from 'commander';
import { DEFAULT_SANDBOX_ID, parseSandboxId } from '@app/common';
import { type AdminClient, AdminRequestFailed, CliUsageError } from './admin-client';
import type { CliIo } from './cli-io';
import { DatabaseAdminClient } from './database-admin-client';
import { HttpAdminClient } from './http-admin-client';

export interface TransportOptions {
  url?: string;
  adminKey?: string;
  /** The sandbox the admin commands address (contract §13); absent: the default sandbox. */
  sandbox?: string;
}

/** A base URL that is a sandbox's `base_url`: its origin (and any path before it) and the sandbox id. */
const SANDBOX_BASE_URL = /^(.*)\/sandboxes\/([^/]+)\/?$/i;

/**
 * The one way every admin command chooses its transport: --url/--admin-key, and --sandbox for the
 * commands that work inside one sandbox (seed, clock, users; not the lifecycle commands).
 */
export function addTransportOptions(command: Command, options: { sandbox: boolean } = { sandbox: true }): Command {
  if (options.sandbox) command.option('--sandbox <id>', 'work in this sandbox (contract §13): its UUID, or default (the default)');
  return command
    .option('--url <base-url>', 'talk to a running sandbox\'s admin API (default: SANDBOX_URL); without it, open the database of the environment (DATABASE_URL or DATA_DIR)')
    .option('--admin-key <key>', 'admin key for --url (default: ADMIN_API_KEY): the operator key, or a sandbox\'s own admin_key');
}

/**
 * Runs `work` with the client the options choose, then closes it. Errors become a message on stderr
 * and the exit code: 2 for bad input or usage, 1 for a refusal (an unknown sandbox too), an
 * unreachable sandbox or a locked database.
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
  if (!url) return new DatabaseAdminClient(io, sandboxIdOf(options.sandbox));
  const adminKey = options.adminKey ?? (io.env.ADMIN_API_KEY || undefined);
  if (!adminKey) throw new CliUsageError(`Talking to ${url} needs the admin key: --admin-key or ADMIN_API_KEY.`);
  if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) {
    throw new CliUsageError(`--url must be the sandbox's base URL, e.g. http://localhost:3000 (got ${JSON.stringify(url)}).`);
  }
  // A sandbox's base_url (…/sandboxes/{id}) as --url names that sandbox: its admin routes are below it.
  const { origin, pathname } = new URL(url);
  const named = SANDBOX_BASE_URL.exec(pathname);
  if (!named) return new HttpAdminClient(`${origin}${pathname.replace(/\/+$/, '')}`, adminKey, sandboxIdOf(options.sandbox));
  const fromUrl = sandboxIdOf(named[2], '--url');
  if (options.sandbox !== undefined && sandboxIdOf(options.sandbox) !== fromUrl) {
    throw new CliUsageError(`--url names the sandbox ${fromUrl} and --sandbox ${options.sandbox}: give one of them.`);
  }
  return new HttpAdminClient(`${origin}${named[1]}`, adminKey, fromUrl);
}

/** `default` or a UUID, as the routes read it (contract §13); anything else is a usage error naming sandbox_id. */
function sandboxIdOf(text: string | undefined, source = '--sandbox'): string {
  if (text === undefined) return DEFAULT_SANDBOX_ID;
  try {
    return parseSandboxId(text);
  } catch (error) {
    throw new CliUsageError(`${source}: ${(error as Error).message}.`);
  }
}
