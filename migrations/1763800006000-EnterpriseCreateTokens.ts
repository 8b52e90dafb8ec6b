import { MigrationInterface, QueryRunner } from 'typeorm';

export class EnterpriseCreateTokens1763800006000 implements MigrationInterface {
  name = 'EnterpriseCreateTokens1763800006000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE enterprise_token (
        token_hash char(64) PRIMARY KEY,
        kind text NOT NULL CHECK (kind IN ('client_credentials', 'end_user')),
        partner_id uuid NOT NULL REFERENCES partner (id),
        personal_number char(12),
        scopes text[] NOT NULL,
        issued_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL
      )`);
    await queryRunner.query(`
      CREATE TABLE enterprise_authorization (
        pending_code uuid PRIMARY KEY,
        partner_id uuid NOT NULL REFERENCES partner (id),
        client_id text NOT NULL,
        personal_number char(12) NOT NULL,
        scopes text[] NOT NULL,
        autostart_token uuid NOT NULL,
        created_at timestamptz NOT NULL,
        exchanged_at timestamptz
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE enterprise_authorization');
    await queryRunner.query('DROP TABLE enterprise_token');
  }
}
