import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Contract §14 (issue 34): a journal's pages follow real arrival (`arrived_at`), and their cursor
 * tells nothing about other sandboxes. `seq`, one identity shared by every sandbox, made
 * `next_after` a count of everyone's requests; it goes. An entry is now placed by its arrival and a
 * random `tiebreak` of its own (two entries of a sandbox may arrive in the same microsecond on two
 * instances), which is the primary key: a sandbox's pages by arrival and its count retention read it
 * backwards, as they read (sandbox_id, seq). The writer leaves `tiebreak` to its default, with COPY
 * and INSERT alike. The caller and request-id indexes end with the same order.
 */
export class JournalArrivalOrder1764100000000 implements MigrationInterface {
  name = 'JournalArrivalOrder1764100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // 62 random bits: a collision needs one sandbox, one microsecond and one draw in 2^62. The default is
    // volatile, so every existing row gets its own.
    await queryRunner.query(`ALTER TABLE journal_entry ADD COLUMN tiebreak bigint NOT NULL DEFAULT floor(random() * 4611686018427387904)::bigint`);
    await queryRunner.query(`DROP INDEX journal_entry_caller`);
    await queryRunner.query(`DROP INDEX journal_entry_request_id`);
    await queryRunner.query(`ALTER TABLE journal_entry DROP CONSTRAINT journal_entry_pkey`);
    await queryRunner.query(`ALTER TABLE journal_entry DROP COLUMN seq`);
    await queryRunner.query(`ALTER TABLE journal_entry ADD CONSTRAINT journal_entry_pkey PRIMARY KEY (sandbox_id, arrived_at, tiebreak)`);
    await queryRunner.query(`CREATE INDEX journal_entry_caller ON journal_entry (sandbox_id, caller_kind, caller_id, arrived_at, tiebreak)`);
    await queryRunner.query(`CREATE INDEX journal_entry_request_id ON journal_entry (sandbox_id, request_id, arrived_at, tiebreak)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX journal_entry_caller`);
    await queryRunner.query(`DROP INDEX journal_entry_request_id`);
    await queryRunner.query(`ALTER TABLE journal_entry DROP CONSTRAINT journal_entry_pkey`);
    // Numbered afresh, in the table's order (the entries' arrival, as they were written).
    await queryRunner.query(`ALTER TABLE journal_entry ADD COLUMN seq bigint GENERATED ALWAYS AS IDENTITY`);
    await queryRunner.query(`ALTER TABLE journal_entry ADD CONSTRAINT journal_entry_pkey PRIMARY KEY (sandbox_id, seq)`);
    await queryRunner.query(`CREATE INDEX journal_entry_caller ON journal_entry (sandbox_id, caller_kind, caller_id, seq)`);
    await queryRunner.query(`CREATE INDEX journal_entry_request_id ON journal_entry (sandbox_id, request_id, seq)`);
    await queryRunner.query(`ALTER TABLE journal_entry DROP COLUMN tiebreak`);
  }
}
