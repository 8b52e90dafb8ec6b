import { MigrationInterface, QueryRunner } from 'typeorm';

export class DirectoryCreateUsersPartnersTpps1763800000100 implements MigrationInterface {
  name = 'DirectoryCreateUsersPartnersTpps1763800000100';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE sandbox_user (
        personal_number char(12) PRIMARY KEY CHECK (personal_number ~ '^[0-9]{12}$'),
        name text NOT NULL,
        kyc_completed boolean NOT NULL,
        eid_behaviour text NOT NULL DEFAULT 'AUTO_COMPLETE',
        busy_elsewhere boolean NOT NULL DEFAULT false,
        credit_decision text CHECK (credit_decision IN ('APPROVED', 'REJECTED')),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`
      CREATE TABLE partner (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        name text NOT NULL,
        api_key_hash char(64) NOT NULL UNIQUE,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`
      CREATE TABLE tpp (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        identifier text NOT NULL UNIQUE,
        non_authenticated_token_lifetime_s integer NOT NULL DEFAULT 1800 CHECK (non_authenticated_token_lifetime_s > 0),
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE tpp');
    await queryRunner.query('DROP TABLE partner');
    await queryRunner.query('DROP TABLE sandbox_user');
  }
}
