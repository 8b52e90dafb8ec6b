import { SERVER_URL } from './test-db';

/**
 * Concurrency and several-instance tests need the PostgreSQL server: the embedded database is
 * single-process by design. Without DATABASE_URL they are skipped with the reason printed; CI runs
 * the suite a second time against the server, where they run.
 */
export function describeOnServer(name: string, fn: () => void): void {
  if (SERVER_URL) {
    describe(name, fn);
    return;
  }
  process.stderr.write(`skipped "${name}": needs DATABASE_URL (a PostgreSQL server); the embedded database is single-process\n`);
  describe.skip(name, fn);
}
