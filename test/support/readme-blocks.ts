import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * README walkthroughs that tests run as written (issue 9, issue 15): a ```sh block between
 * `<!-- NAME:begin -->` and `<!-- NAME:end -->`, run with bash, curl and jq against a sandbox
 * listening on a real port.
 */
const README = join(process.cwd(), 'README.md');

/** The text of the one fenced sh block between the markers named `name`. */
export function readmeBlock(name: string): string {
  const [begin, end] = [`<!-- ${name}:begin -->`, `<!-- ${name}:end -->`];
  const readme = readFileSync(README, 'utf8');
  const from = readme.indexOf(begin);
  const to = readme.indexOf(end);
  if (from < 0 || to < from || readme.indexOf(begin, from + 1) >= 0) {
    throw new Error(`README.md must hold exactly one walkthrough between ${begin} and ${end}`);
  }
  const fenced = /^\s*```sh\n([\s\S]*?)\n```\s*$/.exec(readme.slice(from + begin.length, to));
  if (!fenced || fenced[1].includes('```')) throw new Error(`The walkthrough between ${begin} and ${end} must be one fenced \`\`\`sh block`);
  return fenced[1];
}

/** Fails with how to install them when curl or jq is missing: the walkthroughs need both. */
export function requireCurlAndJq(): void {
  const missing = ['curl', 'jq'].filter((tool) => spawnSync('bash', ['-c', `command -v ${tool}`]).status !== 0);
  if (missing.length > 0) {
    throw new Error(`The README walkthroughs need ${missing.join(' and ')} on PATH (CI installs them: apt-get install curl jq)`);
  }
}

/** Runs a script with `bash -euo pipefail`, as a reader would with the walkthrough saved to a file. */
export function runBash(script: string, env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    // A small environment: no proxy settings of the machine may route curl's 127.0.0.1 calls elsewhere.
    const child = spawn('bash', ['-euo', 'pipefail', '-c', script], {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** The script's stdout as lines: JSON where a line is JSON, else the text. */
export function outputLines(stdout: string): unknown[] {
  return stdout.trimEnd().split('\n').map((line) => (/^[[{]/.test(line) ? JSON.parse(line) : line));
}
