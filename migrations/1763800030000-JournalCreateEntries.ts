import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 16 (contract §14): the request journal, one row per recorded request, already redacted.
 * `seq` is the arrival order (keyset pages, newest first); `arrived_at` is real time (the `since` and
 * `until` filters, retention in real days), `at` the sandbox clock. `hint_codes` repeats the codes of
 * `hints` so the hint filter is an array test. Rows go with their sandbox.
 */
export class JournalCreateEntries1763800030000 implements MigrationInterface {
  name = 'JournalCreateEntries1763800030000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE journal_entry (
        sandbox_id text NOT NULL REFERENCES sandbox (id) ON DELETE CASCADE,
        seq bigint GENERATED ALWAYS AS IDENTITY,
        request_id text NOT NULL,
        arrived_at timestamptz NOT NULL,
        at timestamptz NOT NULL,
        method text NOT NULL,
        path text NOT NULL,
        query jsonb NOT NULL DEFAULT '{}',
        status smallint NOT NULL,
        duration_ms integer NOT NULL,
        caller_kind text NOT NULL CHECK (caller_kind IN ('tpp', 'partner', 'end_user', 'anonymous')),
        caller_id text,
        reason_code text,
        request jsonb NOT NULL,
        response jsonb NOT NULL,
        hints jsonb NOT NULL DEFAULT '[]',
        hint_codes text[] NOT NULL DEFAULT '{}',
        replayed boolean NOT NULL DEFAULT false,
        PRIMARY KEY (sandbox_id, seq)
      )`);
    // The primary key serves a sandbox's pages by arrival and the per-sandbox count retention.
    await queryRunner.query(`CREATE INDEX journal_entry_caller ON journal_entry (sandbox_id, caller_kind, caller_id, seq)`);
    await queryRunner.query(`CREATE INDEX journal_entry_request_id ON journal_entry (sandbox_id, request_id, seq)`);
    // The age retention deletes across every sandbox, oldest first.
    await queryRunner.query(`CREATE INDEX journal_entry_arrived_at ON journal_entry (arrived_at)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE journal_entry`);
  }
}
