import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 17 (contract §15): the Idempotency-Key records. A row is found by `lookup`, the SHA-256 of
 * (sandbox, caller, key), so the key itself is never stored; `fingerprint` is an HMAC of the request
 * (method, path, parsed body, X-Sandbox-User) under a key derived from the Idempotency-Key, and
 * `answer` the kept answer, AES-256-GCM under another such key: the table holds nothing replayable
 * in clear. A row is a claim while `answer` is null (`holder` runs it until `leased_until`, real time)
 * and a kept answer after; `expires_at` is on the sandbox's clock. `sandbox_id` is null for the
 * service's own records (`POST /sandboxes`, whose caller is the operator or an IP); a sandbox's rows
 * go with it.
 */
export class IdempotencyCreateRecords1763800032000 implements MigrationInterface {
  name = 'IdempotencyCreateRecords1763800032000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE idempotency_record (
        sandbox_id text REFERENCES sandbox (id) ON DELETE CASCADE,
        lookup bytea NOT NULL PRIMARY KEY,
        fingerprint bytea NOT NULL,
        holder uuid,
        leased_until timestamptz,
        answer bytea,
        expires_at timestamptz NOT NULL,
        CHECK ((answer IS NULL) = (holder IS NOT NULL))
      )`);
    // The expiry job's scan, and the rows that go with a sandbox.
    await queryRunner.query(`CREATE INDEX idempotency_record_sandbox_expires ON idempotency_record (sandbox_id, expires_at)`);
    await queryRunner.query(`CREATE INDEX idempotency_record_expires ON idempotency_record (expires_at)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE idempotency_record`);
  }
}
