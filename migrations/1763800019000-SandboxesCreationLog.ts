import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 15 (contract §13 Self-service): who created a sandbox without a key, and when (real time),
 * so SANDBOX_CREATE_PER_HOUR per caller IP is counted by every instance alike. The service's own
 * table, not a sandbox's data: a row outlives the sandbox it counted (deleting one frees no quota),
 * and rows older than the window are pruned as creations go.
 */
export class SandboxesCreationLog1763800019000 implements MigrationInterface {
  name = 'SandboxesCreationLog1763800019000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE sandbox_creation (
        caller_ip text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    // The window of one caller, and the pruning of old rows.
    await queryRunner.query(`CREATE INDEX sandbox_creation_caller_ip_created_at_idx ON sandbox_creation (caller_ip, created_at)`);
    await queryRunner.query(`CREATE INDEX sandbox_creation_created_at_idx ON sandbox_creation (created_at)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE sandbox_creation`);
  }
}
