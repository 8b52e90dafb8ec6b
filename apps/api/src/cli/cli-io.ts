/** Where a command writes, and where it hears SIGINT and SIGTERM; the process's in production, the test's own in tests. */
export interface CliIo {
  env: Record<string, string | undefined>;
  // Properties, not methods: they are handed around unbound (commander's configureOutput).
  out: (text: string) => void;
  err: (text: string) => void;
  /** Emits 'SIGINT' and 'SIGTERM': a command that runs until stopped (`requests tail --follow`) listens here. */
  signals: Pick<NodeJS.EventEmitter, 'once' | 'removeListener'>;
}

export const processIo: CliIo = {
  env: process.env,
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  signals: process,
};
