import { MigrationInterface, QueryRunner } from 'typeorm';

export class SavingsCreateTransfers1763800003000 implements MigrationInterface {
  name = 'SavingsCreateTransfers1763800003000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE account ADD CONSTRAINT account_balance_not_negative CHECK (balance >= 0)`);
    await queryRunner.query(`
      CREATE TABLE recurring_transfer (
        reference_id uuid PRIMARY KEY,
        account_number text NOT NULL REFERENCES account (account_number),
        owner_personal_number char(12) NOT NULL,
        tpp_id uuid NOT NULL REFERENCES tpp (id),
        amount numeric(18, 2) NOT NULL CHECK (amount > 0),
        currency char(3) NOT NULL,
        transfer_date date NOT NULL,
        end_date date CHECK (end_date >= transfer_date),
        frequency text NOT NULL CHECK (frequency IN ('WEEKLY', 'MONTHLY', 'QUARTERLY', 'YEARLY')),
        recipient_account_number text NOT NULL,
        recipient_name text,
        counter_part_statement text,
        statement text,
        status text NOT NULL CHECK (status IN ('AWAITING_SIGNATURE', 'ACTIVE', 'ENDED', 'DELETED')),
        occurrences_booked integer NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL,
        signed_at timestamptz
      )`);
    await queryRunner.query(`CREATE INDEX recurring_transfer_owner_idx ON recurring_transfer (owner_personal_number, created_at)`);
    await queryRunner.query(`CREATE INDEX recurring_transfer_active_idx ON recurring_transfer (reference_id) WHERE status = 'ACTIVE'`);
    await queryRunner.query(`
      CREATE TABLE transfer (
        reference_id uuid PRIMARY KEY,
        account_number text NOT NULL REFERENCES account (account_number),
        owner_personal_number char(12) NOT NULL,
        tpp_id uuid NOT NULL REFERENCES tpp (id),
        recurring_transfer_id uuid REFERENCES recurring_transfer (reference_id),
        amount numeric(18, 2) NOT NULL CHECK (amount > 0),
        currency char(3) NOT NULL,
        transfer_date date NOT NULL,
        recipient_account_number text NOT NULL,
        recipient_name text,
        counter_part_statement text,
        statement text,
        status text NOT NULL CHECK (status IN ('AWAITING_SIGNATURE', 'SIGNED', 'EXECUTED', 'REJECTED', 'DELETED')),
        rejection_reason text,
        created_at timestamptz NOT NULL,
        signed_at timestamptz,
        executed_at timestamptz,
        UNIQUE (recurring_transfer_id, transfer_date)
      )`);
    await queryRunner.query(`CREATE INDEX transfer_account_idx ON transfer (account_number, created_at)`);
    await queryRunner.query(`CREATE INDEX transfer_due_idx ON transfer (transfer_date) WHERE status = 'SIGNED'`);
    await queryRunner.query(`
      CREATE TABLE account_transaction (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        account_number text NOT NULL REFERENCES account (account_number),
        reference_id uuid NOT NULL REFERENCES transfer (reference_id),
        amount numeric(18, 2) NOT NULL,
        currency char(3) NOT NULL,
        booking_date date NOT NULL,
        booked_at timestamptz NOT NULL,
        counterpart text NOT NULL,
        UNIQUE (account_number, reference_id)
      )`);
    await queryRunner.query(`CREATE INDEX account_transaction_account_idx ON account_transaction (account_number, booked_at DESC)`);
    await queryRunner.query(`
      CREATE TABLE transfer_signing (
        signing_id uuid PRIMARY KEY,
        tpp_id uuid NOT NULL REFERENCES tpp (id),
        personal_number char(12) NOT NULL,
        eid_order_id uuid NOT NULL UNIQUE REFERENCES eid_order (id),
        reference_ids uuid[] NOT NULL,
        created_at timestamptz NOT NULL,
        applied_at timestamptz
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE transfer_signing');
    await queryRunner.query('DROP TABLE account_transaction');
    await queryRunner.query('DROP TABLE transfer');
    await queryRunner.query('DROP TABLE recurring_transfer');
    await queryRunner.query('ALTER TABLE account DROP CONSTRAINT account_balance_not_negative');
  }
}
