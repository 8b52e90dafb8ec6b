import { MigrationInterface, QueryRunner } from 'typeorm';

export class EidCreateOrders1763800001000 implements MigrationInterface {
  name = 'EidCreateOrders1763800001000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE eid_order (
        id uuid PRIMARY KEY,
        kind text NOT NULL CHECK (kind IN ('authentication', 'signing')),
        channel text NOT NULL CHECK (channel IN ('app', 'phone')),
        call_initiator text CHECK (call_initiator IN ('RP', 'USER')),
        personal_number char(12) NOT NULL,
        behaviour text NOT NULL,
        requested_by text NOT NULL,
        status text NOT NULL CHECK (status IN ('INITIATED', 'PENDING', 'COMPLETE', 'FAILED', 'COLLECT_ERROR')),
        hint_code text,
        started_at timestamptz NOT NULL,
        app_opened_at timestamptz,
        call_confirmed_at timestamptz,
        finished_at timestamptz,
        autostart_token uuid NOT NULL UNIQUE,
        qr_start_token uuid NOT NULL UNIQUE,
        qr_start_secret text NOT NULL,
        version integer NOT NULL DEFAULT 1
      )`);
    // The expiry job and the simulator's listing look only at open orders.
    await queryRunner.query(`CREATE INDEX eid_order_open_idx ON eid_order (started_at) WHERE status IN ('INITIATED', 'PENDING')`);
    await queryRunner.query(
      `CREATE INDEX eid_order_open_by_person_idx ON eid_order (personal_number, started_at) WHERE status IN ('INITIATED', 'PENDING')`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE eid_order');
  }
}
