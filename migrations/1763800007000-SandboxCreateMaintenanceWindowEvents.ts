import { MigrationInterface, QueryRunner } from 'typeorm';

export class SandboxCreateMaintenanceWindowEvents1763800007000 implements MigrationInterface {
  name = 'SandboxCreateMaintenanceWindowEvents1763800007000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // The downtime bookkeeping job records each window's start and end once (contract §7).
    await queryRunner.query(`
      CREATE TABLE maintenance_window_event (
        window_start timestamptz NOT NULL,
        event text NOT NULL CHECK (event IN ('started', 'ended')),
        occurred_at timestamptz NOT NULL,
        observed_at timestamptz NOT NULL,
        PRIMARY KEY (window_start, event)
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE maintenance_window_event');
  }
}
