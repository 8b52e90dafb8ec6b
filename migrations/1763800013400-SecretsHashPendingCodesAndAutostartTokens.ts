import { MigrationInterface, QueryRunner } from 'typeorm';

/** The SHA-256 (lowercase hex) of a uuid's canonical text, as hashSecret computes it in the app. */
const sha256Hex = (column: string) => `encode(sha256(convert_to(${column}::text, 'UTF8')), 'hex')`;

/**
 * Issue 13: PSD2 and enterprise pending codes and eid autostart tokens are kept only as their
 * SHA-256, like every other token; existing rows are hashed in place, so codes handed out before
 * the upgrade keep working. (The QR start secret stays readable: it keys the QR codes.)
 */
export class SecretsHashPendingCodesAndAutostartTokens1763800013400 implements MigrationInterface {
  name = 'SecretsHashPendingCodesAndAutostartTokens1763800013400';

  async up(queryRunner: QueryRunner): Promise<void> {
    await hashColumn(queryRunner, 'eid_order', 'autostart_token', 'UNIQUE');
    await hashColumn(queryRunner, 'psd2_authorization', 'pending_code', 'PRIMARY KEY');
    await hashColumn(queryRunner, 'enterprise_authorization', 'pending_code', 'PRIMARY KEY');
    await hashColumn(queryRunner, 'enterprise_authorization', 'autostart_token', null);
  }

  /** A hash cannot be undone: open codes and tokens get new random values, so they stop working. */
  async down(queryRunner: QueryRunner): Promise<void> {
    await unhashColumn(queryRunner, 'enterprise_authorization', 'autostart_token', null);
    await unhashColumn(queryRunner, 'enterprise_authorization', 'pending_code', 'PRIMARY KEY');
    await unhashColumn(queryRunner, 'psd2_authorization', 'pending_code', 'PRIMARY KEY');
    await unhashColumn(queryRunner, 'eid_order', 'autostart_token', 'UNIQUE');
  }
}

type Key = 'PRIMARY KEY' | 'UNIQUE' | null;

async function hashColumn(queryRunner: QueryRunner, table: string, column: string, key: Key): Promise<void> {
  await queryRunner.query(`ALTER TABLE ${table} ADD COLUMN ${column}_hash char(64)`);
  await queryRunner.query(`UPDATE ${table} SET ${column}_hash = ${sha256Hex(column)}`);
  // Dropping the clear column drops its primary key or unique constraint with it.
  await queryRunner.query(`ALTER TABLE ${table} DROP COLUMN ${column}`);
  await queryRunner.query(`ALTER TABLE ${table} ALTER COLUMN ${column}_hash SET NOT NULL`);
  if (key) await queryRunner.query(`ALTER TABLE ${table} ADD ${key} (${column}_hash)`);
}

async function unhashColumn(queryRunner: QueryRunner, table: string, column: string, key: Key): Promise<void> {
  await queryRunner.query(`ALTER TABLE ${table} ADD COLUMN ${column} uuid`);
  await queryRunner.query(`UPDATE ${table} SET ${column} = gen_random_uuid()`);
  await queryRunner.query(`ALTER TABLE ${table} DROP COLUMN ${column}_hash`);
  await queryRunner.query(`ALTER TABLE ${table} ALTER COLUMN ${column} SET NOT NULL`);
  if (key) await queryRunner.query(`ALTER TABLE ${table} ADD ${key} (${column})`);
}
