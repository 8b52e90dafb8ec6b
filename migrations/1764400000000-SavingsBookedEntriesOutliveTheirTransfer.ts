import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Contract §8: a user seeded again is as if new, its transfers gone. A transfer of theirs that paid
 * another sandbox user booked an entry on that user's account, which is that user's record (as the
 * credited balance is) and stays: so an entry's reference_id names the transfer that booked it
 * without requiring it to exist still.
 */
export class SavingsBookedEntriesOutliveTheirTransfer1764400000000 implements MigrationInterface {
  name = 'SavingsBookedEntriesOutliveTheirTransfer1764400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE account_transaction DROP CONSTRAINT account_transaction_reference_id_fkey`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    // NOT VALID: entries that outlived their transfer meanwhile stay; new ones are checked again.
    await queryRunner.query(
      `ALTER TABLE account_transaction ADD CONSTRAINT account_transaction_reference_id_fkey
         FOREIGN KEY (sandbox_id, reference_id) REFERENCES transfer (sandbox_id, reference_id) NOT VALID`,
    );
  }
}
