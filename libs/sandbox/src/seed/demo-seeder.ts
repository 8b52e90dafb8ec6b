import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DEFAULT_SANDBOX_ID, newSecret, type PersonalNumber, SandboxConfig, SandboxContext, SandboxDb } from '@app/common';
import { PartnerService, UserService } from '@app/directory';
import { AccountService } from '@app/savings';

export const DEMO_PARTNER_NAME = 'Demo Partner';
export const DEMO_PARTNER_KEY_FILE = 'demo-partner-key';

/** The demo set of contract §8. */
const DEMO_USERS = [
  {
    personalNumber: '191212121212',
    settings: { name: 'Tolvan Tolvansson', kycCompleted: true },
    accounts: [
      { name: 'Lönekonto', currency: 'SEK', balanceMinor: 2_500_000n },
      { name: 'Sparkonto', currency: 'SEK', balanceMinor: 15_000_000n },
    ],
  },
  {
    personalNumber: '198112189876',
    settings: { name: 'Sven Svensson', kycCompleted: false },
    accounts: [{ name: 'Lönekonto', currency: 'SEK', balanceMinor: 1_000_000n }],
  },
];

/**
 * With SEED_DEMO on, seeds the demo set once per sandbox (the claim is a row in sandbox_meta,
 * inserted in the same transaction). The demo partner's key is DEMO_PARTNER_KEY if set (ensured on
 * every start, so the configured key always works), else random; it is printed once and written
 * to DATA_DIR/demo-partner-key.
 */
@Injectable()
export class DemoSeeder implements OnApplicationBootstrap {
  private readonly logger = new Logger(DemoSeeder.name);

  constructor(
    private readonly db: SandboxDb,
    private readonly config: SandboxConfig,
    private readonly users: UserService,
    private readonly accounts: AccountService,
    private readonly partners: PartnerService,
  ) {}

  /** At start the default sandbox gets the demo set (created sandboxes get theirs when they are made). */
  onApplicationBootstrap(): Promise<void> {
    return SandboxContext.run(DEFAULT_SANDBOX_ID, () => this.seedDefault());
  }

  /**
   * The demo set in the context's sandbox (a created one, contract §13), inside the caller's
   * transaction; its demo partner holds the key whose hash is given (the key is the caller's to show).
   */
  async seedSandbox(partnerKeyHash: string): Promise<void> {
    await this.db.transaction(async () => {
      if (!(await this.claim())) return;
      await this.seedUsers();
      await this.partners.ensureHashed(DEMO_PARTNER_NAME, partnerKeyHash);
    });
  }

  /** The default sandbox's demo set per SEED_DEMO and DEMO_PARTNER_KEY (at start and at its reset). */
  async seedDefault(): Promise<void> {
    if (!this.config.seedDemo) return;
    const key = await this.db.transaction(async () => {
      if (!(await this.claim())) return null;
      await this.seedUsers();
      return (await this.partners.ensure(DEMO_PARTNER_NAME, this.config.demoPartnerKey ?? newSecret())).apiKey;
    });
    if (key) {
      this.announce(key);
    } else if (this.config.demoPartnerKey) {
      await this.partners.ensure(DEMO_PARTNER_NAME, this.config.demoPartnerKey);
    }
  }

  private async seedUsers(): Promise<void> {
    for (const user of DEMO_USERS) {
      const personalNumber = user.personalNumber as PersonalNumber;
      await this.users.put(personalNumber, user.settings);
      for (const account of user.accounts) await this.accounts.open(personalNumber, account);
    }
  }

  private async claim(): Promise<boolean> {
    const rows: unknown[] = await this.db.query(
      `INSERT INTO sandbox_meta (sandbox_id, key, value) VALUES ($1, 'demo_seeded', 'yes') ON CONFLICT (sandbox_id, key) DO NOTHING RETURNING key`,
    );
    return rows.length === 1;
  }

  /** Straight to the operator's console, never through the request logger. */
  private announce(key: string): void {
    let where = '';
    if (this.config.dataDir !== 'memory://') {
      try {
        const dir = resolve(this.config.dataDir);
        mkdirSync(dir, { recursive: true });
        const file = join(dir, DEMO_PARTNER_KEY_FILE);
        writeFileSync(file, `${key}\n`, { mode: 0o600 });
        where = ` (also in ${file})`;
      } catch (error) {
        this.logger.warn(`could not write ${DEMO_PARTNER_KEY_FILE} to DATA_DIR: ${(error as Error).message}`);
      }
    }
    process.stdout.write(
      `\nDemo data seeded: users 191212121212 (Tolvan Tolvansson) and 198112189876 (Sven Svensson).\n` +
        `Demo partner key${where}: ${key}\n\n`,
    );
  }
}
