import { readFileSync } from 'node:fs';
import { CliUsageError } from './admin-client';

/** A fixture file (seed, sandboxes create --fixture) as JSON; unreadable or not JSON is a usage error (exit code 2). */
export function readJsonFile(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new CliUsageError(`Cannot read ${file} as JSON: ${(error as Error).message}`);
  }
}
