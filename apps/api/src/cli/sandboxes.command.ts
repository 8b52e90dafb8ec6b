import type { SandboxCreatedDto, SandboxDto } from '@app/sandbox';
import { CliUsageError } from './admin-client';
import { type TransportOptions, withAdminClient } from './admin-transport';
import type { CliIo } from './cli-io';
import { readJsonFile } from './json-file';

export interface SandboxOutputOptions extends Omit<TransportOptions, 'sandbox'> {
  json?: boolean;
}

export interface CreateSandboxOptions extends SandboxOutputOptions {
  name: string;
  /** false with --no-seed-demo. */
  seedDemo: boolean;
  demoPartnerKey?: string;
  /** undefined: the service's DOWNTIME_CALENDAR. */
  downtimeCalendar?: boolean;
  clockNow?: string;
  frozen?: boolean;
  fixture?: string;
}

export interface ListSandboxesOptions extends SandboxOutputOptions {
  limit?: string;
  after?: string;
}

/** The sandbox lifecycle (contract §13) through POST/GET /sandboxes, GET/DELETE /sandboxes/{id} and …/reset. */
export const sandboxesCommands = {
  create: (options: CreateSandboxOptions, io: CliIo) =>
    withAdminClient(options, io, async (client) => {
      if (options.frozen && options.clockNow === undefined) throw new CliUsageError('--frozen needs --clock-now: the time the sandbox clock stands still at.');
      const body = {
        name: options.name,
        seed_demo: options.seedDemo,
        ...(options.demoPartnerKey !== undefined ? { demo_partner_key: options.demoPartnerKey } : {}),
        ...(options.downtimeCalendar !== undefined ? { downtime_calendar: options.downtimeCalendar } : {}),
        ...(options.clockNow !== undefined ? { clock: { now: options.clockNow, frozen: options.frozen ?? false } } : {}),
        ...(options.fixture !== undefined ? { fixture: readJsonFile(options.fixture) } : {}),
      };
      const sandbox = await client.createSandbox(body);
      io.out(options.json ? `${JSON.stringify(sandbox)}\n` : describeCreated(sandbox));
      io.err(`The admin key${sandbox.demo_partner_key === undefined ? ' is' : ' and the demo partner key are'} shown only now: keep them.\n`);
      return 0;
    }),
  list: (options: ListSandboxesOptions, io: CliIo) =>
    withAdminClient(options, io, async (client) => {
      const page = await client.listSandboxes({ limit: options.limit, after: options.after });
      io.out(options.json ? `${JSON.stringify(page)}\n` : sandboxTable(page.sandboxes));
      if (page.next_after) io.err(`More sandboxes follow: add --after ${page.next_after}\n`);
      return 0;
    }),
  show: (sandboxId: string, options: SandboxOutputOptions, io: CliIo) =>
    withAdminClient(options, io, async (client) => {
      const sandbox = await client.showSandbox(sandboxId);
      io.out(options.json ? `${JSON.stringify(sandbox)}\n` : describeSandbox(sandbox));
      return 0;
    }),
  reset: (sandboxId: string, options: SandboxOutputOptions, io: CliIo) =>
    withAdminClient(options, io, async (client) => {
      const sandbox = await client.resetSandbox(sandboxId);
      io.out(options.json ? `${JSON.stringify(sandbox)}\n` : `Reset ${describeSandbox(sandbox)}`);
      return 0;
    }),
  delete: (sandboxId: string, options: SandboxOutputOptions, io: CliIo) =>
    withAdminClient(options, io, async (client) => {
      await client.deleteSandbox(sandboxId);
      io.out(options.json ? `${JSON.stringify({ sandbox_id: sandboxId, deleted: true })}\n` : `Deleted sandbox ${sandboxId}\n`);
      return 0;
    }),
};

function sandboxLines(sandbox: SandboxDto): string[] {
  return [`${sandbox.sandbox_id} ${sandbox.name}`, `  base url:         ${sandbox.base_url}`, `  created at:       ${sandbox.created_at}`, `  last used at:     ${sandbox.last_used_at}`];
}

function describeSandbox(sandbox: SandboxDto): string {
  return sandboxLines(sandbox).map((line) => `${line}\n`).join('');
}

function describeCreated(sandbox: SandboxCreatedDto): string {
  const lines = [
    `Created ${sandboxLines(sandbox)[0]}`,
    ...sandboxLines(sandbox).slice(1),
    `  admin key:        ${sandbox.admin_key}`,
    `  demo partner key: ${sandbox.demo_partner_key ?? '(no demo set)'}`,
  ];
  return lines.map((line) => `${line}\n`).join('');
}

function sandboxTable(sandboxes: SandboxDto[]): string {
  const header = ['SANDBOX ID', 'NAME', 'CREATED AT', 'LAST USED AT'];
  const rows = sandboxes.map((s) => [s.sandbox_id, s.name, s.created_at, s.last_used_at]);
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i].length)));
  return [header, ...rows].map((row) => `${row.map((cell, i) => cell.padEnd(widths[i])).join('  ').trimEnd()}\n`).join('');
}
