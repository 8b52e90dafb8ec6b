import { MigrationInterface, QueryRunner } from 'typeorm';

export class SandboxCreateMeta1763800000300 implements MigrationInterface {
  name = 'SandboxCreateMeta1763800000300';

  async up(queryRunner: QueryRunner): Promise<void> {
    // Facts about this sandbox instance, e.g. when the demo set was seeded (once per database).
    await queryRunner.query(`
      CREATE TABLE sandbox_meta (
        key text PRIMARY KEY,
        value text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE sandbox_meta');
  }
}
