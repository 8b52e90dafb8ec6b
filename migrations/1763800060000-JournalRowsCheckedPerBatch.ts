import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 16 (the journal's cost on the hot paths): a journal row still goes with its sandbox, but the
 * check is made once per written batch instead of once per row. The foreign key ran a locking read
 * of the sandbox row for every entry (about a fifth of the database's time per written entry,
 * measured with COPY batches of 500) and made every writer of the sandbox's rows share that lock. Now:
 *
 * - a statement trigger on the journal's writes locks the sandboxes its rows name (FOR KEY SHARE, as
 *   the foreign key did, once per sandbox in the batch) and deletes the rows of any that is gone: an
 *   entry buffered for a sandbox deleted since its request is dropped, as before;
 * - a statement trigger on the deletion of sandboxes deletes their rows (ON DELETE CASCADE did). A
 *   deletion waits for a batch that holds the lock and then sees its rows: no row outlives its sandbox.
 *
 * The age retention reads arrival times through a BRIN index (rows arrive in time order): a few
 * pages of summaries instead of a B-tree entry written with every row.
 */
export class JournalRowsCheckedPerBatch1763800060000 implements MigrationInterface {
  name = 'JournalRowsCheckedPerBatch1763800060000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE journal_entry DROP CONSTRAINT journal_entry_sandbox_id_fkey`);
    await queryRunner.query(`
      CREATE FUNCTION journal_entry_keep_live_sandboxes() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        named text[];
        gone text[];
      BEGIN
        SELECT array_agg(DISTINCT w.sandbox_id) INTO named FROM written w;
        -- Held to the commit: a deletion of one of these sandboxes waits, then deletes these rows too.
        PERFORM 1 FROM sandbox s WHERE s.id = ANY (named) FOR KEY SHARE;
        SELECT array_agg(n.id) INTO gone FROM unnest(named) AS n(id) WHERE NOT EXISTS (SELECT 1 FROM sandbox s WHERE s.id = n.id);
        IF gone IS NOT NULL THEN
          DELETE FROM journal_entry WHERE sandbox_id = ANY (gone);
        END IF;
        RETURN NULL;
      END $$`);
    await queryRunner.query(`
      CREATE TRIGGER journal_entry_keep_live_sandboxes AFTER INSERT ON journal_entry
      REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION journal_entry_keep_live_sandboxes()`);
    await queryRunner.query(`
      CREATE FUNCTION journal_entry_go_with_sandboxes() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        DELETE FROM journal_entry WHERE sandbox_id = ANY (ARRAY(SELECT g.id FROM gone g));
        RETURN NULL;
      END $$`);
    await queryRunner.query(`
      CREATE TRIGGER journal_entry_go_with_sandboxes AFTER DELETE ON sandbox
      REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION journal_entry_go_with_sandboxes()`);
    await queryRunner.query(`DROP INDEX journal_entry_arrived_at`);
    await queryRunner.query(`CREATE INDEX journal_entry_arrived_at ON journal_entry USING brin (arrived_at)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX journal_entry_arrived_at`);
    await queryRunner.query(`CREATE INDEX journal_entry_arrived_at ON journal_entry (arrived_at)`);
    await queryRunner.query(`DROP TRIGGER journal_entry_go_with_sandboxes ON sandbox`);
    await queryRunner.query(`DROP FUNCTION journal_entry_go_with_sandboxes()`);
    await queryRunner.query(`DROP TRIGGER journal_entry_keep_live_sandboxes ON journal_entry`);
    await queryRunner.query(`DROP FUNCTION journal_entry_keep_live_sandboxes()`);
    await queryRunner.query(`DELETE FROM journal_entry j WHERE NOT EXISTS (SELECT 1 FROM sandbox s WHERE s.id = j.sandbox_id)`);
    await queryRunner.query(`ALTER TABLE journal_entry ADD CONSTRAINT journal_entry_sandbox_id_fkey FOREIGN KEY (sandbox_id) REFERENCES sandbox (id) ON DELETE CASCADE`);
  }
}
