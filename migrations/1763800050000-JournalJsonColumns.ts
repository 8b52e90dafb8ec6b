import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 16: the journal's request, response, query and hints are kept as written (json), not
 * decomposed (jsonb). Nothing queries inside them: they are stored once and read back whole, and
 * converting every entry to jsonb was most of the database's time per recorded request.
 */
export class JournalJsonColumns1763800050000 implements MigrationInterface {
  name = 'JournalJsonColumns1763800050000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(retypeJournalDocuments('json'));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(retypeJournalDocuments('jsonb'));
  }
}

/** The four document columns as `type`, their defaults dropped around the conversion and set again in it. */
function retypeJournalDocuments(type: 'json' | 'jsonb'): string {
  return `
    ALTER TABLE journal_entry
      ALTER COLUMN query DROP DEFAULT,
      ALTER COLUMN hints DROP DEFAULT,
      ${['query', 'request', 'response', 'hints'].map((column) => `ALTER COLUMN ${column} TYPE ${type} USING ${column}::${type}`).join(',\n      ')},
      ALTER COLUMN query SET DEFAULT '{}'::${type},
      ALTER COLUMN hints SET DEFAULT '[]'::${type}`;
}
