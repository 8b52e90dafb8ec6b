import { NestFactory } from '@nestjs/core';
import { readFileSync } from 'node:fs';
import { StrictValidationPipe } from '@app/common';
import { SeedFixtureDto, SeedService } from '@app/sandbox';
import { AppModule } from '../app.module';
import type { CliIo } from './cli-io';

export interface SeedOptions {
  /** A running sandbox to post the fixture to; otherwise the database of the environment. */
  url?: string;
  adminKey?: string;
}

/**
 * Loads a fixture file (the format of POST /admin/seed, contract §8): through a running sandbox with
 * --url, or straight into the database named by the environment (DATABASE_URL or DATA_DIR).
 */
export async function seedCommand(file: string, options: SeedOptions, io: CliIo): Promise<number> {
  let fixture: unknown;
  try {
    fixture = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    io.err(`Cannot read ${file} as JSON: ${(error as Error).message}\n`);
    return 2;
  }
  return options.url ? seedThroughApi(fixture, options.url, options.adminKey ?? io.env.ADMIN_API_KEY, io) : seedDatabase(fixture, io);
}

async function seedDatabase(fixture: unknown, io: CliIo): Promise<number> {
  let valid: SeedFixtureDto;
  try {
    // The same rules as the HTTP route: one pipe.
    valid = (await new StrictValidationPipe().transform(fixture, { type: 'body', metatype: SeedFixtureDto })) as SeedFixtureDto;
  } catch (error) {
    io.err(`The fixture is not valid: ${(error as Error).message}\n`);
    return 2;
  }
  const env = { ...io.env, SEED_DEMO: 'off', JOBS_INTERVAL_MS: '0', LOG_LEVEL: io.env.LOG_LEVEL ?? 'warn' };
  const app = await NestFactory.createApplicationContext(AppModule.forRoot({ env }), { logger: ['error', 'warn'], abortOnError: false });
  try {
    report(await app.get(SeedService).load(valid), io);
    return 0;
  } catch (error) {
    io.err(`Seeding failed, nothing was written: ${(error as Error).message}\n`);
    return 1;
  } finally {
    await app.close();
  }
}

async function seedThroughApi(fixture: unknown, url: string, adminKey: string | undefined, io: CliIo): Promise<number> {
  if (!adminKey) {
    io.err('Seeding through --url needs the admin key: --admin-key or ADMIN_API_KEY.\n');
    return 2;
  }
  const response = await fetch(new URL('/admin/seed', url), {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${adminKey}` },
    body: JSON.stringify(fixture),
  });
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const problem = body as { reason?: { message?: string } } | null;
    io.err(`POST /admin/seed answered ${response.status}: ${problem?.reason?.message ?? JSON.stringify(body)}\n`);
    return 1;
  }
  report(body as SeedSummary, io);
  return 0;
}

interface SeedSummary {
  users: Array<{ personal_number: string; created: boolean; accounts: Array<{ account_number: string }> }>;
  partners: Array<{ partner_id: string; name: string; api_key: string }>;
  tpps: Array<{ organization_id: string }>;
}

function report(result: SeedSummary, io: CliIo): void {
  const accounts = result.users.reduce((n, u) => n + u.accounts.length, 0);
  io.out(`Seeded ${result.users.length} user(s) with ${accounts} account(s), ${result.partners.length} partner(s), ${result.tpps.length} TPP setting(s).\n`);
  for (const partner of result.partners) io.out(`Partner ${partner.name} (${partner.partner_id}) api key: ${partner.api_key}\n`);
}
