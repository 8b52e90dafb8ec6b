import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A signing takes effect when its eid order completes (bank §3.2): the eid engine tells the signing
 * lib the order, which finds its participant by current_order_id, so that lookup is indexed (per
 * sandbox, as every lookup; only participants that started a signing have one).
 */
export class SigningIndexParticipantCurrentOrder1763800064000 implements MigrationInterface {
  name = 'SigningIndexParticipantCurrentOrder1763800064000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX signing_participant_current_order_idx ON signing_participant (sandbox_id, current_order_id) WHERE current_order_id IS NOT NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX signing_participant_current_order_idx`);
  }
}
