import { MigrationInterface, QueryRunner } from 'typeorm';

export class MortgageCreatePreApprovalsAndLoanApplications1763800005000 implements MigrationInterface {
  name = 'MortgageCreatePreApprovalsAndLoanApplications1763800005000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE pre_approval (
        id uuid PRIMARY KEY,
        partner_id uuid NOT NULL REFERENCES partner (id),
        applicants jsonb NOT NULL,
        loan_amount bigint NOT NULL CHECK (loan_amount > 0),
        unsecured_loan_amount bigint CHECK (unsecured_loan_amount > 0),
        offer jsonb NOT NULL,
        status text NOT NULL CHECK (status IN ('OFFER_GENERATED', 'AWAITING_ACCEPTANCE', 'SIGNING_ONGOING', 'PROCESSING', 'APPROVED', 'REJECTED', 'EXPIRED')),
        with_unsecured_loan boolean,
        created_at timestamptz NOT NULL,
        expiry_date timestamptz NOT NULL,
        processing_at timestamptz,
        decided_at timestamptz,
        customer_service_reference text
      )`);
    await queryRunner.query(`CREATE INDEX pre_approval_processing_idx ON pre_approval (processing_at) WHERE status = 'PROCESSING'`);
    await queryRunner.query(
      `CREATE INDEX pre_approval_expiry_idx ON pre_approval (expiry_date) WHERE status IN ('OFFER_GENERATED', 'AWAITING_ACCEPTANCE', 'SIGNING_ONGOING')`,
    );
    await queryRunner.query(`
      CREATE TABLE loan_application (
        id uuid PRIMARY KEY,
        partner_id uuid NOT NULL REFERENCES partner (id),
        applicants jsonb NOT NULL,
        loan_amount bigint NOT NULL CHECK (loan_amount > 0),
        status text NOT NULL CHECK (status IN ('AWAITING_SIGNATURE', 'PROCESSING', 'APPROVED', 'REJECTED', 'WITHDRAWN')),
        created_at timestamptz NOT NULL,
        processing_at timestamptz,
        decided_at timestamptz,
        customer_service_reference text
      )`);
    await queryRunner.query(`CREATE INDEX loan_application_processing_idx ON loan_application (processing_at) WHERE status = 'PROCESSING'`);
    await queryRunner.query(`
      CREATE TABLE loan_application_supplement (
        loan_application_id uuid NOT NULL REFERENCES loan_application (id),
        supplement_id uuid NOT NULL,
        document_type text NOT NULL,
        file_name text NOT NULL,
        content_type text NOT NULL,
        content bytea NOT NULL,
        size_bytes integer NOT NULL,
        sha256 char(64) NOT NULL,
        received_at timestamptz NOT NULL,
        PRIMARY KEY (loan_application_id, supplement_id)
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE loan_application_supplement');
    await queryRunner.query('DROP TABLE loan_application');
    await queryRunner.query('DROP TABLE pre_approval');
  }
}
