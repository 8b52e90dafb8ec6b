import { MigrationInterface, QueryRunner } from 'typeorm';

export class CommonCreateClockAndJobLeases1763800000000 implements MigrationInterface {
  name = 'CommonCreateClockAndJobLeases1763800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // contract §6: one row; no anchors means real time.
    await queryRunner.query(`
      CREATE TABLE sandbox_clock (
        id smallint PRIMARY KEY CHECK (id = 1),
        sandbox_anchor timestamptz,
        real_anchor timestamptz,
        frozen boolean NOT NULL DEFAULT false,
        CHECK ((sandbox_anchor IS NULL) = (real_anchor IS NULL))
      )`);
    await queryRunner.query(`INSERT INTO sandbox_clock (id) VALUES (1)`);
    await queryRunner.query(`
      CREATE TABLE job_lease (
        name text PRIMARY KEY,
        holder text,
        leased_until timestamptz,
        last_run_at timestamptz
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE job_lease');
    await queryRunner.query('DROP TABLE sandbox_clock');
  }
}
