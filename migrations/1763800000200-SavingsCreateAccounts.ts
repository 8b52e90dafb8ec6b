import { MigrationInterface, QueryRunner } from 'typeorm';

export class SavingsCreateAccounts1763800000200 implements MigrationInterface {
  name = 'SavingsCreateAccounts1763800000200';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE account (
        account_number text PRIMARY KEY CHECK (account_number ~ '^[0-9]{8,15}$'),
        owner_personal_number char(12) NOT NULL REFERENCES sandbox_user (personal_number),
        name text NOT NULL,
        currency char(3) NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
        balance numeric(18, 2) NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query('CREATE INDEX account_owner_idx ON account (owner_personal_number)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE account');
  }
}
