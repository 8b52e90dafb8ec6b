import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 15 (contract §6, §13): what instances cache of a sandbox (its clock row, generation and
 * downtime setting, its existence) changes only through these tables, and triggers log every such
 * change with its transaction id, so one "what changed since" read per instance a second refreshes
 * every cached sandbox however many exist (SandboxChanges). Triggers, not application code: a
 * change from any path (a migration, psql, a test) is seen too. The log is the service's own, not a
 * sandbox's data: it keeps the ids of deleted sandboxes (no foreign key) and is pruned after a minute.
 */
export class SandboxesChangeFeed1763800020000 implements MigrationInterface {
  name = 'SandboxesChangeFeed1763800020000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE sandbox_change (
        xid xid8 NOT NULL DEFAULT pg_current_xact_id(),
        sandbox text NOT NULL,
        changed_at timestamptz NOT NULL DEFAULT clock_timestamp()
      )`);
    await queryRunner.query(`CREATE INDEX sandbox_change_xid ON sandbox_change (xid)`);
    await queryRunner.query(`CREATE INDEX sandbox_change_changed_at ON sandbox_change (changed_at)`);
    await queryRunner.query(`
      CREATE FUNCTION sandbox_changed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO sandbox_change (sandbox) VALUES (CASE WHEN TG_OP = 'DELETE' THEN OLD.id ELSE NEW.id END);
        RETURN NULL;
      END $$`);
    await queryRunner.query(`
      CREATE FUNCTION sandbox_clock_changed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO sandbox_change (sandbox) VALUES (NEW.sandbox_id);
        RETURN NULL;
      END $$`);
    await queryRunner.query(`
      CREATE TRIGGER sandbox_changed AFTER DELETE OR UPDATE OF generation, downtime_calendar ON sandbox
        FOR EACH ROW EXECUTE FUNCTION sandbox_changed()`);
    await queryRunner.query(`
      CREATE TRIGGER sandbox_clock_changed AFTER UPDATE ON sandbox_clock
        FOR EACH ROW EXECUTE FUNCTION sandbox_clock_changed()`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER sandbox_clock_changed ON sandbox_clock`);
    await queryRunner.query(`DROP TRIGGER sandbox_changed ON sandbox`);
    await queryRunner.query(`DROP FUNCTION sandbox_clock_changed()`);
    await queryRunner.query(`DROP FUNCTION sandbox_changed()`);
    await queryRunner.query(`DROP TABLE sandbox_change`);
  }
}
