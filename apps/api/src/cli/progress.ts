import type { ProgressReporter } from './admin-client';
import type { CliIo } from './cli-io';

/** Progress lines on stderr ("users 120/500"), about ten per part, so stdout stays the answer. */
export function stderrProgress(io: CliIo): ProgressReporter {
  return {
    step({ part, done, total }) {
      const every = Math.max(1, Math.ceil(total / 10));
      if (done === total || done % every === 0) io.err(`${part} ${done}/${total}\n`);
    },
    note: (text) => io.err(`${text}\n`),
  };
}
