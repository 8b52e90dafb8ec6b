import 'reflect-metadata';
import { processIo } from './cli/cli-io';
import { runCli } from './cli/program';

runCli(process.argv.slice(2), processIo).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${(error as Error)?.stack ?? String(error)}\n`);
    process.exit(1);
  },
);
