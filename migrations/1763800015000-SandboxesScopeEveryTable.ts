import { MigrationInterface, QueryRunner } from 'typeorm';

/** Every table of sandbox data, parents before children (job_lease guards processes, not a sandbox). */
const SANDBOX_TABLES = [
  'sandbox_user',
  'partner',
  'tpp',
  'account',
  'sandbox_meta',
  'eid_order',
  'psd2_authorization',
  'psd2_consent',
  'psd2_access_token',
  'psd2_refresh_token',
  'recurring_transfer',
  'transfer',
  'account_transaction',
  'transfer_signing',
  'signing_participant',
  'signing_person',
  'pre_approval',
  'loan_application',
  'loan_application_supplement',
  'enterprise_token',
  'enterprise_authorization',
  'maintenance_window_event',
];

/** The tables whose account_number references account (now per sandbox). */
const ACCOUNT_CHILDREN = ['recurring_transfer', 'transfer', 'account_transaction'];

/**
 * Issue 15 (contract §13): many sandboxes in one database. A `sandbox` table with the default
 * sandbox, and `sandbox_id` on every table of sandbox data: existing rows become the default
 * sandbox's. Every key that identifies sandbox data by a value a caller chooses or presents (a
 * personal number, account number, organization id, key or token hash, a recurring transfer's
 * date) and every lookup index of a hot path leads with sandbox_id; ids that are random UUIDs stay
 * globally unique primary keys (every lookup still filters by sandbox). The clock becomes one row
 * per sandbox. The column keeps its default, the default sandbox: rows written from outside the
 * service (psql, a test that writes rows as the schema before this migration did) land where
 * they did before. The service itself never relies on it: SandboxDb names the sandbox in every
 * statement and refuses one that does not.
 */
export class SandboxesScopeEveryTable1763800015000 implements MigrationInterface {
  name = 'SandboxesScopeEveryTable1763800015000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const q = (sql: string) => queryRunner.query(sql);
    await q(`
      CREATE TABLE sandbox (
        id text PRIMARY KEY,
        name text NOT NULL,
        generation bigint NOT NULL DEFAULT 1,
        created_at timestamptz NOT NULL DEFAULT now(),
        last_used_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q(`INSERT INTO sandbox (id, name) VALUES ('default', 'default')`);

    for (const table of SANDBOX_TABLES) {
      await q(`ALTER TABLE ${table} ADD COLUMN sandbox_id text NOT NULL DEFAULT 'default' REFERENCES sandbox (id) ON DELETE CASCADE`);
    }

    // Natural keys: per sandbox. Foreign keys to them first, then the keys, then the foreign keys again.
    await q(`ALTER TABLE account DROP CONSTRAINT account_owner_personal_number_fkey`);
    for (const child of ACCOUNT_CHILDREN) await q(`ALTER TABLE ${child} DROP CONSTRAINT ${child}_account_number_fkey`);
    await rekey(queryRunner, 'sandbox_user', 'sandbox_user_pkey', 'PRIMARY KEY', 'personal_number');
    await rekey(queryRunner, 'account', 'account_pkey', 'PRIMARY KEY', 'account_number');
    await q(`ALTER TABLE account ADD CONSTRAINT account_owner_personal_number_fkey
               FOREIGN KEY (sandbox_id, owner_personal_number) REFERENCES sandbox_user (sandbox_id, personal_number)`);
    for (const child of ACCOUNT_CHILDREN) {
      await q(`ALTER TABLE ${child} ADD CONSTRAINT ${child}_account_number_fkey
                 FOREIGN KEY (sandbox_id, account_number) REFERENCES account (sandbox_id, account_number)`);
    }
    await rekey(queryRunner, 'partner', 'partner_api_key_hash_key', 'UNIQUE', 'api_key_hash');
    await rekey(queryRunner, 'tpp', 'tpp_identifier_key', 'UNIQUE', 'identifier');
    await rekey(queryRunner, 'sandbox_meta', 'sandbox_meta_pkey', 'PRIMARY KEY', 'key');
    await rekey(queryRunner, 'eid_order', 'eid_order_autostart_token_hash_key', 'UNIQUE', 'autostart_token_hash');
    await rekey(queryRunner, 'eid_order', 'eid_order_qr_start_token_key', 'UNIQUE', 'qr_start_token');
    await rekey(queryRunner, 'psd2_authorization', 'psd2_authorization_pkey', 'PRIMARY KEY', 'pending_code_hash');
    await rekey(queryRunner, 'psd2_access_token', 'psd2_access_token_pkey', 'PRIMARY KEY', 'token_hash');
    await rekey(queryRunner, 'psd2_refresh_token', 'psd2_refresh_token_pkey', 'PRIMARY KEY', 'token_hash');
    await rekey(queryRunner, 'transfer', 'transfer_recurring_transfer_id_transfer_date_key', 'UNIQUE', 'recurring_transfer_id, transfer_date');
    await rekey(queryRunner, 'account_transaction', 'account_transaction_account_number_reference_id_key', 'UNIQUE', 'account_number, reference_id');
    await rekey(queryRunner, 'signing_person', 'signing_person_pkey', 'PRIMARY KEY', 'personal_number');
    await rekey(queryRunner, 'enterprise_token', 'enterprise_token_pkey', 'PRIMARY KEY', 'token_hash');
    await rekey(queryRunner, 'enterprise_authorization', 'enterprise_authorization_pkey', 'PRIMARY KEY', 'pending_code_hash');
    await rekey(queryRunner, 'loan_application_supplement', 'loan_application_supplement_pkey', 'PRIMARY KEY', 'loan_application_id, supplement_id');
    await rekey(queryRunner, 'maintenance_window_event', 'maintenance_window_event_pkey', 'PRIMARY KEY', 'window_start, event');

    // Lookup indexes of the hot paths lead with the sandbox.
    for (const [index, table, columns] of LOOKUP_INDEXES) {
      await q(`DROP INDEX ${index}`);
      await q(`CREATE INDEX ${index} ON ${table} (sandbox_id, ${columns})${OPEN_ORDER_INDEXES.has(index) ? OPEN_ORDER : ''}`);
    }

    // One clock row per sandbox (contract §6, §13).
    await q(`ALTER TABLE sandbox_clock ADD COLUMN sandbox_id text REFERENCES sandbox (id) ON DELETE CASCADE`);
    await q(`UPDATE sandbox_clock SET sandbox_id = 'default'`);
    await q(`ALTER TABLE sandbox_clock DROP COLUMN id`);
    await q(`ALTER TABLE sandbox_clock ALTER COLUMN sandbox_id SET NOT NULL`);
    await q(`ALTER TABLE sandbox_clock ADD PRIMARY KEY (sandbox_id)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const q = (sql: string) => queryRunner.query(sql);
    // Only the default sandbox survives a downgrade: the old schema holds one world.
    await q(`DELETE FROM sandbox WHERE id <> 'default'`);
    await q(`ALTER TABLE sandbox_clock DROP CONSTRAINT sandbox_clock_pkey`);
    await q(`ALTER TABLE sandbox_clock ADD COLUMN id smallint`);
    await q(`UPDATE sandbox_clock SET id = 1`);
    await q(`ALTER TABLE sandbox_clock DROP COLUMN sandbox_id`);
    await q(`ALTER TABLE sandbox_clock ALTER COLUMN id SET NOT NULL`);
    await q(`ALTER TABLE sandbox_clock ADD PRIMARY KEY (id), ADD CHECK (id = 1)`);

    // Dropping the column drops every key, foreign key and index it is part of.
    for (const table of [...SANDBOX_TABLES].reverse()) await q(`ALTER TABLE ${table} DROP COLUMN sandbox_id CASCADE`);
    await q(`ALTER TABLE sandbox_user ADD CONSTRAINT sandbox_user_pkey PRIMARY KEY (personal_number)`);
    await q(`ALTER TABLE account ADD CONSTRAINT account_pkey PRIMARY KEY (account_number)`);
    await q(`ALTER TABLE account ADD CONSTRAINT account_owner_personal_number_fkey FOREIGN KEY (owner_personal_number) REFERENCES sandbox_user (personal_number)`);
    for (const child of ACCOUNT_CHILDREN) {
      await q(`ALTER TABLE ${child} ADD CONSTRAINT ${child}_account_number_fkey FOREIGN KEY (account_number) REFERENCES account (account_number)`);
    }
    await q(`ALTER TABLE partner ADD CONSTRAINT partner_api_key_hash_key UNIQUE (api_key_hash)`);
    await q(`ALTER TABLE tpp ADD CONSTRAINT tpp_identifier_key UNIQUE (identifier)`);
    await q(`ALTER TABLE sandbox_meta ADD CONSTRAINT sandbox_meta_pkey PRIMARY KEY (key)`);
    await q(`ALTER TABLE eid_order ADD CONSTRAINT eid_order_autostart_token_hash_key UNIQUE (autostart_token_hash)`);
    await q(`ALTER TABLE eid_order ADD CONSTRAINT eid_order_qr_start_token_key UNIQUE (qr_start_token)`);
    await q(`ALTER TABLE psd2_authorization ADD CONSTRAINT psd2_authorization_pkey PRIMARY KEY (pending_code_hash)`);
    await q(`ALTER TABLE psd2_access_token ADD CONSTRAINT psd2_access_token_pkey PRIMARY KEY (token_hash)`);
    await q(`ALTER TABLE psd2_refresh_token ADD CONSTRAINT psd2_refresh_token_pkey PRIMARY KEY (token_hash)`);
    await q(`ALTER TABLE transfer ADD CONSTRAINT transfer_recurring_transfer_id_transfer_date_key UNIQUE (recurring_transfer_id, transfer_date)`);
    await q(`ALTER TABLE account_transaction ADD CONSTRAINT account_transaction_account_number_reference_id_key UNIQUE (account_number, reference_id)`);
    await q(`ALTER TABLE signing_person ADD CONSTRAINT signing_person_pkey PRIMARY KEY (personal_number)`);
    await q(`ALTER TABLE enterprise_token ADD CONSTRAINT enterprise_token_pkey PRIMARY KEY (token_hash)`);
    await q(`ALTER TABLE enterprise_authorization ADD CONSTRAINT enterprise_authorization_pkey PRIMARY KEY (pending_code_hash)`);
    await q(`ALTER TABLE loan_application_supplement ADD CONSTRAINT loan_application_supplement_pkey PRIMARY KEY (loan_application_id, supplement_id)`);
    await q(`ALTER TABLE maintenance_window_event ADD CONSTRAINT maintenance_window_event_pkey PRIMARY KEY (window_start, event)`);
    for (const [index, table, columns] of LOOKUP_INDEXES) {
      await q(`CREATE INDEX ${index} ON ${table} (${columns})${OPEN_ORDER_INDEXES.has(index) ? OPEN_ORDER : ''}`);
    }
    await q('DROP TABLE sandbox');
  }
}

/** [index, table, its columns after sandbox_id] */
const LOOKUP_INDEXES: ReadonlyArray<readonly [string, string, string]> = [
  ['account_owner_idx', 'account', 'owner_personal_number'],
  ['eid_order_open_by_person_idx', 'eid_order', 'personal_number, started_at'],
  ['recurring_transfer_owner_idx', 'recurring_transfer', 'owner_personal_number, created_at'],
  ['transfer_account_idx', 'transfer', 'account_number, created_at'],
  ['account_transaction_account_idx', 'account_transaction', 'account_number, booked_at DESC'],
  ['signing_participant_process_idx', 'signing_participant', 'process_kind, process_id, created_at'],
];
const OPEN_ORDER_INDEXES = new Set(['eid_order_open_by_person_idx']);
const OPEN_ORDER = ` WHERE status IN ('INITIATED', 'PENDING')`;

async function rekey(queryRunner: QueryRunner, table: string, constraint: string, kind: 'PRIMARY KEY' | 'UNIQUE', columns: string): Promise<void> {
  await queryRunner.query(`ALTER TABLE ${table} DROP CONSTRAINT ${constraint}`);
  await queryRunner.query(`ALTER TABLE ${table} ADD CONSTRAINT ${constraint} ${kind} (sandbox_id, ${columns})`);
}
