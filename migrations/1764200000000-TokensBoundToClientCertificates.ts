import { MigrationInterface, QueryRunner } from 'typeorm';

const TABLES = ['psd2_access_token', 'psd2_refresh_token', 'enterprise_token'] as const;

/**
 * Certificate-bound tokens (contract §16, RFC 8705 §3): a token issued on the strict-mode TLS port
 * keeps the SHA-256 thumbprint of the handshake's client certificate (lowercase hex of its DER); a
 * token of the plain port keeps none (NULL). Nullable, so tokens issued before stay plain-port ones.
 */
export class TokensBoundToClientCertificates1764200000000 implements MigrationInterface {
  name = 'TokensBoundToClientCertificates1764200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const table of TABLES) await queryRunner.query(`ALTER TABLE ${table} ADD COLUMN certificate_thumbprint char(64)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of TABLES) await queryRunner.query(`ALTER TABLE ${table} DROP COLUMN certificate_thumbprint`);
  }
}
