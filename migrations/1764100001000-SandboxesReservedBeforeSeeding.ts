import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Contract §13 (issue 34): a creation counts and reserves its sandbox in a short transaction and
 * seeds it in another, so no creation waits for another's seeding. `ready` is false from the
 * reservation until the seeding commits: such a sandbox counts toward SANDBOX_MAX but serves no
 * request and is listed nowhere. `self_service` marks the sandboxes SANDBOX_SELF_SERVICE_MAX counts.
 * `sandbox_creation.created_sandbox_id` names the creation a log row counted, so a creation whose
 * seeding fails takes its row back (nothing written). Not `sandbox_id`: the row is the service's and
 * outlives its sandbox, so deleting a sandbox gives no creation back. The partial index finds
 * reservations a crash left.
 */
export class SandboxesReservedBeforeSeeding1764100001000 implements MigrationInterface {
  name = 'SandboxesReservedBeforeSeeding1764100001000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE sandbox ADD COLUMN ready boolean NOT NULL DEFAULT true`);
    await queryRunner.query(`ALTER TABLE sandbox ADD COLUMN self_service boolean NOT NULL DEFAULT false`);
    await queryRunner.query(`CREATE INDEX sandbox_reserved ON sandbox (created_at) WHERE NOT ready`);
    await queryRunner.query(`ALTER TABLE sandbox_creation ADD COLUMN created_sandbox_id text`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE sandbox_creation DROP COLUMN created_sandbox_id`);
    // A reservation is no sandbox yet: it goes rather than becoming one half seeded.
    await queryRunner.query(`DELETE FROM sandbox WHERE NOT ready`);
    await queryRunner.query(`DROP INDEX sandbox_reserved`);
    await queryRunner.query(`ALTER TABLE sandbox DROP COLUMN self_service`);
    await queryRunner.query(`ALTER TABLE sandbox DROP COLUMN ready`);
  }
}
