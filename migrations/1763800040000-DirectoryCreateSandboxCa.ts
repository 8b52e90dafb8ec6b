import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 18 (contract §16 strict mode): the service's one sandbox CA (its key never served), the
 * certificates it issued (so an unknown serial is 404 and revocation names a real one), and the
 * revocations, per sandbox: a sandbox's reset or deletion takes its revocations with it.
 */
export class DirectoryCreateSandboxCa1763800040000 implements MigrationInterface {
  name = 'DirectoryCreateSandboxCa1763800040000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE sandbox_ca (
        id smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
        certificate_pem text NOT NULL,
        private_key_pem text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`,
    );
    await queryRunner.query(
      `CREATE TABLE issued_certificate (
        serial text PRIMARY KEY,
        organization_id text NOT NULL,
        not_before timestamptz NOT NULL,
        not_after timestamptz NOT NULL,
        issued_at timestamptz NOT NULL DEFAULT now()
      )`,
    );
    await queryRunner.query(
      `CREATE TABLE certificate_revocation (
        sandbox_id text NOT NULL REFERENCES sandbox (id) ON DELETE CASCADE,
        -- An issued serial (checked by the service: issued_certificate is the service's, and a sandbox
        -- table's foreign keys name only sandbox data, contract §13 Isolation).
        serial text NOT NULL,
        revoked_at timestamptz NOT NULL,
        PRIMARY KEY (sandbox_id, serial)
      )`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE certificate_revocation`);
    await queryRunner.query(`DROP TABLE issued_certificate`);
    await queryRunner.query(`DROP TABLE sandbox_ca`);
  }
}
