/** Where a command writes; process streams in production, buffers in tests. */
export interface CliIo {
  env: Record<string, string | undefined>;
  // Properties, not methods: they are handed around unbound (commander's configureOutput).
  out: (text: string) => void;
  err: (text: string) => void;
}

export const processIo: CliIo = {
  env: process.env,
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
};
