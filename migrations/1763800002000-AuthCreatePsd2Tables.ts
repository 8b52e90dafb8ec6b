import { MigrationInterface, QueryRunner } from 'typeorm';

export class AuthCreatePsd2Tables1763800002000 implements MigrationInterface {
  name = 'AuthCreatePsd2Tables1763800002000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE psd2_authorization (
        pending_code uuid PRIMARY KEY,
        flow text NOT NULL CHECK (flow IN ('authenticate', 'authorize')),
        tpp_id uuid NOT NULL REFERENCES tpp (id),
        eid_order_id uuid NOT NULL UNIQUE REFERENCES eid_order (id),
        scopes text[] NOT NULL,
        start_mode text NOT NULL CHECK (start_mode IN ('AUTO_START', 'QR_CODE')),
        end_user_ip text NOT NULL,
        psu_ip_address text NOT NULL,
        created_at timestamptz NOT NULL,
        last_polled_at timestamptz,
        exchanged_at timestamptz
      )`);
    await queryRunner.query(`
      CREATE TABLE psd2_consent (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        tpp_id uuid NOT NULL REFERENCES tpp (id),
        personal_number char(12) NOT NULL,
        scopes text[] NOT NULL,
        granted_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL
      )`);
    await queryRunner.query(`
      CREATE TABLE psd2_access_token (
        token_hash char(64) PRIMARY KEY,
        kind text NOT NULL CHECK (kind IN ('authenticate', 'authorize', 'non_authenticated')),
        tpp_id uuid NOT NULL REFERENCES tpp (id),
        personal_number char(12) NOT NULL,
        scopes text[] NOT NULL,
        issued_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL
      )`);
    await queryRunner.query(`
      CREATE TABLE psd2_refresh_token (
        token_hash char(64) PRIMARY KEY,
        tpp_id uuid NOT NULL REFERENCES tpp (id),
        personal_number char(12) NOT NULL,
        consent_id uuid NOT NULL REFERENCES psd2_consent (id),
        issued_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        uses_day date,
        uses_count integer NOT NULL DEFAULT 0 CHECK (uses_count BETWEEN 0 AND 4)
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE psd2_refresh_token');
    await queryRunner.query('DROP TABLE psd2_access_token');
    await queryRunner.query('DROP TABLE psd2_consent');
    await queryRunner.query('DROP TABLE psd2_authorization');
  }
}
