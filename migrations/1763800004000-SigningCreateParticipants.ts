import { MigrationInterface, QueryRunner } from 'typeorm';

export class SigningCreateParticipants1763800004000 implements MigrationInterface {
  name = 'SigningCreateParticipants1763800004000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE signing_participant (
        id uuid PRIMARY KEY,
        partner_id uuid NOT NULL REFERENCES partner (id),
        process_kind text NOT NULL,
        process_id uuid NOT NULL,
        personal_number char(12) NOT NULL,
        current_order_id uuid REFERENCES eid_order (id),
        current_order_kind text CHECK (current_order_kind IN ('start', 'phone')),
        signed_at timestamptz,
        created_at timestamptz NOT NULL
      )`);
    await queryRunner.query('CREATE INDEX signing_participant_process_idx ON signing_participant (process_kind, process_id, created_at)');
    // Contract §11: the signing state of a personal number, shared by every partner.
    await queryRunner.query(`
      CREATE TABLE signing_person (
        personal_number char(12) PRIMARY KEY,
        order_id uuid REFERENCES eid_order (id),
        order_kind text CHECK (order_kind IN ('start', 'phone')),
        order_ip text,
        retry_armed boolean NOT NULL DEFAULT false,
        blocked_until timestamptz
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE signing_person');
    await queryRunner.query('DROP TABLE signing_participant');
  }
}
