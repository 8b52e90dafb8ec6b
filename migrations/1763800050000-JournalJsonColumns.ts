import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 16: the journal's request, response, query and hints are kept as written (json), not
 * decomposed (jsonb). Nothing queries inside them: they are stored once and read back whole, and
 * converting every entry to jsonb was most of the database's time per recorded request.
 */
export class JournalJsonColumns1763800050000 implements MigrationInterface {
  name = 'JournalJsonColumns1763800050000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE journal_entry
        ALTER COLUMN query DROP DEFAULT,
        ALTER COLUMN hints DROP DEFAULT,
        ALTER COLUMN query TYPE json USING query::json,
        ALTER COLUMN request TYPE json USING request::json,
        ALTER COLUMN response TYPE json USING response::json,
        ALTER COLUMN hints TYPE json USING hints::json,
        ALTER COLUMN query SET DEFAULT '{}'::json,
        ALTER COLUMN hints SET DEFAULT '[]'::json`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE journal_entry
        ALTER COLUMN query DROP DEFAULT,
        ALTER COLUMN hints DROP DEFAULT,
        ALTER COLUMN query TYPE jsonb USING query::jsonb,
        ALTER COLUMN request TYPE jsonb USING request::jsonb,
        ALTER COLUMN response TYPE jsonb USING response::jsonb,
        ALTER COLUMN hints TYPE jsonb USING hints::jsonb,
        ALTER COLUMN query SET DEFAULT '{}'::jsonb,
        ALTER COLUMN hints SET DEFAULT '[]'::jsonb`);
  }
}
