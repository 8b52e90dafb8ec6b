import { MigrationInterface, QueryRunner } from 'typeorm';

/** [table, foreign key, its column, the referenced table, the referenced column] */
const FOREIGN_KEYS: ReadonlyArray<readonly [string, string, string, string, string]> = [
  ['psd2_authorization', 'psd2_authorization_tpp_id_fkey', 'tpp_id', 'tpp', 'id'],
  ['psd2_authorization', 'psd2_authorization_eid_order_id_fkey', 'eid_order_id', 'eid_order', 'id'],
  ['psd2_consent', 'psd2_consent_tpp_id_fkey', 'tpp_id', 'tpp', 'id'],
  ['psd2_access_token', 'psd2_access_token_tpp_id_fkey', 'tpp_id', 'tpp', 'id'],
  ['psd2_refresh_token', 'psd2_refresh_token_tpp_id_fkey', 'tpp_id', 'tpp', 'id'],
  ['psd2_refresh_token', 'psd2_refresh_token_consent_id_fkey', 'consent_id', 'psd2_consent', 'id'],
  ['recurring_transfer', 'recurring_transfer_tpp_id_fkey', 'tpp_id', 'tpp', 'id'],
  ['transfer', 'transfer_tpp_id_fkey', 'tpp_id', 'tpp', 'id'],
  ['transfer', 'transfer_recurring_transfer_id_fkey', 'recurring_transfer_id', 'recurring_transfer', 'reference_id'],
  ['account_transaction', 'account_transaction_reference_id_fkey', 'reference_id', 'transfer', 'reference_id'],
  ['transfer_signing', 'transfer_signing_tpp_id_fkey', 'tpp_id', 'tpp', 'id'],
  ['transfer_signing', 'transfer_signing_eid_order_id_fkey', 'eid_order_id', 'eid_order', 'id'],
  ['signing_participant', 'signing_participant_partner_id_fkey', 'partner_id', 'partner', 'id'],
  ['signing_participant', 'signing_participant_current_order_id_fkey', 'current_order_id', 'eid_order', 'id'],
  ['signing_person', 'signing_person_order_id_fkey', 'order_id', 'eid_order', 'id'],
  ['pre_approval', 'pre_approval_partner_id_fkey', 'partner_id', 'partner', 'id'],
  ['loan_application', 'loan_application_partner_id_fkey', 'partner_id', 'partner', 'id'],
  ['loan_application_supplement', 'loan_application_supplement_loan_application_id_fkey', 'loan_application_id', 'loan_application', 'id'],
  ['enterprise_token', 'enterprise_token_partner_id_fkey', 'partner_id', 'partner', 'id'],
  ['enterprise_authorization', 'enterprise_authorization_partner_id_fkey', 'partner_id', 'partner', 'id'],
];

/** Every referenced table and column: each gets a (sandbox_id, column) key for the foreign keys to name. */
const PARENTS = [...new Set(FOREIGN_KEYS.map(([, , , parent, column]) => `${parent}.${column}`))].map((name) => name.split('.') as [string, string]);

/**
 * Issue 15 (contract §13 Isolation): the foreign keys between tables of sandbox data name the sandbox
 * on both sides, as the account ones already do. A UUID foreign key alone lets a row of one sandbox
 * reference a row of another (the ids are unique across sandboxes): SandboxDb scopes every lookup, so
 * no route is known to do it, but the database now refuses it rather than trusting every lookup and
 * cache to stay keyed by sandbox. Names and the default ON DELETE are kept. Recreated after the
 * sandbox_id foreign keys, they are checked after them, so a write of a request in flight into a
 * deleted sandbox still fails on its sandbox_id foreign key first (its 404, not a 500).
 */
export class SandboxesForeignKeysIncludeSandbox1763800018000 implements MigrationInterface {
  name = 'SandboxesForeignKeysIncludeSandbox1763800018000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const q = (sql: string) => queryRunner.query(sql);
    for (const [parent, column] of PARENTS) await q(`ALTER TABLE ${parent} ADD CONSTRAINT ${parent}_sandbox_id_${column}_key UNIQUE (sandbox_id, ${column})`);
    for (const [table, key, column, parent, referenced] of FOREIGN_KEYS) {
      await q(`ALTER TABLE ${table} DROP CONSTRAINT ${key}`);
      await q(`ALTER TABLE ${table} ADD CONSTRAINT ${key} FOREIGN KEY (sandbox_id, ${column}) REFERENCES ${parent} (sandbox_id, ${referenced})`);
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const q = (sql: string) => queryRunner.query(sql);
    for (const [table, key, column, parent, referenced] of FOREIGN_KEYS) {
      await q(`ALTER TABLE ${table} DROP CONSTRAINT ${key}`);
      await q(`ALTER TABLE ${table} ADD CONSTRAINT ${key} FOREIGN KEY (${column}) REFERENCES ${parent} (${referenced})`);
    }
    for (const [parent, column] of PARENTS) await q(`ALTER TABLE ${parent} DROP CONSTRAINT ${parent}_sandbox_id_${column}_key`);
  }
}
