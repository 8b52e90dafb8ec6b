import type { SeedResultDto } from '@app/sandbox';
import { AdminRequestFailed } from './admin-client';
import { type TransportOptions, withAdminClient } from './admin-transport';
import type { CliIo } from './cli-io';
import { readJsonFile } from './json-file';
import { stderrProgress } from './progress';

/**
 * Loads a fixture file (the format of POST /admin/seed, contract §8), all or nothing: through a
 * running sandbox with --url, or straight into the database named by the environment. Progress goes
 * to stderr, the summary to stdout.
 */
export function seedCommand(file: string, options: TransportOptions, io: CliIo): Promise<number> {
  return withAdminClient(options, io, async (client) => {
    // Read before the client opens anything (it opens at its first call).
    const fixture = readJsonFile(file);
    try {
      report(await client.seed(fixture, stderrProgress(io)), io);
      return 0;
    } catch (error) {
      if (!(error instanceof AdminRequestFailed)) throw error;
      throw new AdminRequestFailed(error.status, error.code, `Nothing was seeded: ${error.message}`);
    }
  });
}

function report(result: SeedResultDto, io: CliIo): void {
  const accounts = result.users.reduce((n, u) => n + u.accounts.length, 0);
  io.out(`Seeded ${result.users.length} user(s) with ${accounts} account(s), ${result.partners.length} partner(s), ${result.tpps.length} TPP setting(s).\n`);
  for (const partner of result.partners) io.out(`Partner ${partner.name} (${partner.partner_id}) api key: ${partner.api_key}\n`);
}
