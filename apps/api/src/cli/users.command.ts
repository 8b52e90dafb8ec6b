import type { UserResponseDto, UserSummaryDto } from '@app/sandbox';
import type { AccountDto } from '@app/savings';
import { type TransportOptions, withAdminClient } from './admin-transport';
import type { CliIo } from './cli-io';

export interface OutputOptions extends TransportOptions {
  json?: boolean;
}

export interface ListUsersOptions extends OutputOptions {
  limit?: string;
  after?: string;
}

export interface PutUserOptions extends OutputOptions {
  name: string;
  kyc: boolean;
  eid?: string;
  busyElsewhere?: boolean;
  creditDecision?: string;
}

export interface OpenAccountOptions extends OutputOptions {
  name: string;
  currency: string;
  balance: string;
  accountNumber?: string;
}

/** The sandbox users (contract §4, §8) through the admin use cases. */
export const usersCommands = {
  list: (options: ListUsersOptions, io: CliIo) =>
    withAdminClient(options, io, async (client) => {
      const page = await client.listUsers({ limit: options.limit, after: options.after });
      if (options.json) io.out(`${JSON.stringify(page)}\n`);
      else io.out(userTable(page.users));
      if (page.next_after) io.err(`More users follow: add --after ${page.next_after}\n`);
      return 0;
    }),

  show: (personalNumber: string, options: OutputOptions, io: CliIo) =>
    withAdminClient(options, io, async (client) => {
      const user = await client.getUser(personalNumber);
      io.out(options.json ? `${JSON.stringify(user)}\n` : describeUser(user));
      return 0;
    }),

  put: (personalNumber: string, options: PutUserOptions, io: CliIo) =>
    withAdminClient(options, io, async (client) => {
      const body = {
        name: options.name,
        kyc_completed: options.kyc,
        ...(options.eid !== undefined ? { eid_behaviour: options.eid } : {}),
        ...(options.busyElsewhere ? { busy_elsewhere: true } : {}),
        ...(options.creditDecision !== undefined ? { credit_decision: options.creditDecision } : {}),
      };
      const { user, created } = await client.putUser(personalNumber, body);
      if (options.json) io.out(`${JSON.stringify(user)}\n`);
      else io.out(`${created ? 'Created' : 'Replaced'} ${user.personal_number} ${user.name} (${settings(user)}, ${user.accounts.length} account(s))\n`);
      return 0;
    }),

  openAccount: (personalNumber: string, options: OpenAccountOptions, io: CliIo) =>
    withAdminClient(options, io, async (client) => {
      const body = {
        name: options.name,
        currency: options.currency,
        // A number stays a number; anything else goes as given, for the validation to name it.
        balance: /^\d+(\.\d+)?$/.test(options.balance) ? Number(options.balance) : options.balance,
        ...(options.accountNumber !== undefined ? { account_number: options.accountNumber } : {}),
      };
      const account = await client.openAccount(personalNumber, body);
      io.out(options.json ? `${JSON.stringify(account)}\n` : `Opened ${describeAccount(account)}\n`);
      return 0;
    }),
};

function settings(user: UserSummaryDto | UserResponseDto): string {
  const parts = [user.eid_behaviour, user.kyc_completed ? 'KYC done' : 'KYC not done'];
  if (user.busy_elsewhere) parts.push('busy elsewhere');
  if (user.credit_decision) parts.push(`credit ${user.credit_decision}`);
  return parts.join(', ');
}

function userTable(users: UserSummaryDto[]): string {
  const header = ['PERSONAL NUMBER', 'NAME', 'EID BEHAVIOUR', 'KYC', 'ACCOUNTS', 'OTHER'];
  const rows = users.map((u) => [
    u.personal_number,
    u.name,
    u.eid_behaviour,
    u.kyc_completed ? 'yes' : 'no',
    String(u.account_count),
    [u.busy_elsewhere ? 'busy elsewhere' : '', u.credit_decision ? `credit ${u.credit_decision}` : ''].filter(Boolean).join(', '),
  ]);
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i].length)));
  return [header, ...rows].map((row) => `${row.map((cell, i) => cell.padEnd(widths[i])).join('  ').trimEnd()}\n`).join('');
}

function describeUser(user: UserResponseDto): string {
  const lines = [
    `${user.personal_number} ${user.name}`,
    `  eid behaviour:   ${user.eid_behaviour}`,
    `  KYC completed:   ${user.kyc_completed ? 'yes' : 'no'}`,
    `  busy elsewhere:  ${user.busy_elsewhere ? 'yes' : 'no'}`,
    `  credit decision: ${user.credit_decision ?? '(not set)'}`,
    `  accounts:        ${user.accounts.length === 0 ? '(none)' : ''}`,
    ...user.accounts.map((account) => `    ${describeAccount(account)}`),
  ];
  return lines.map((line) => `${line.trimEnd()}\n`).join('');
}

function describeAccount(account: AccountDto): string {
  const available = account.available_balance !== account.balance ? ` (available ${account.available_balance})` : '';
  return `${account.account_number} ${account.name}: ${account.balance} ${account.currency}${available}`;
}
