import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 15 (contract §13 Lifecycle, Keys): a created sandbox's admin key (SHA-256 only) and the
 * settings it was created with, so a reset recreates it as it was: the demo set and its partner's
 * key (hash), the downtime calendar (NULL: the service's DOWNTIME_CALENDAR), the clock setting
 * (NULL: real time) and the fixture (its partners' keys as hashes). The default sandbox has none of
 * them: it follows the service's configuration.
 */
export class SandboxesKeysAndSettings1763800016000 implements MigrationInterface {
  name = 'SandboxesKeysAndSettings1763800016000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE sandbox
        ADD COLUMN admin_key_hash text,
        ADD COLUMN seed_demo boolean NOT NULL DEFAULT false,
        ADD COLUMN demo_partner_key_hash text,
        ADD COLUMN downtime_calendar boolean,
        ADD COLUMN clock_now timestamptz,
        ADD COLUMN clock_frozen boolean NOT NULL DEFAULT false,
        ADD COLUMN fixture jsonb`);
    // GET /sandboxes pages by id (keyset); the primary key serves it.
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE sandbox
        DROP COLUMN admin_key_hash,
        DROP COLUMN seed_demo,
        DROP COLUMN demo_partner_key_hash,
        DROP COLUMN downtime_calendar,
        DROP COLUMN clock_now,
        DROP COLUMN clock_frozen,
        DROP COLUMN fixture`);
  }
}
