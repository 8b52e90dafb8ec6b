import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 16 (contract §14 hints POLLED_AFTER_FINAL, EXCHANGE_BEFORE_COMPLETE): when a poll first
 * answered an eid order COMPLETE or FAILED (sandbox clock). Existing orders have none: a poll
 * records it on its next final answer.
 */
export class EidRecordFinalReported1763800031000 implements MigrationInterface {
  name = 'EidRecordFinalReported1763800031000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE eid_order ADD COLUMN final_reported_at timestamptz`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE eid_order DROP COLUMN final_reported_at`);
  }
}
