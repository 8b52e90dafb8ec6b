import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { PreparedStatements } from '../database/prepared-statements';
import { returnedRows } from '../database/returned-rows';

/** How long a claim lives without renewal (real seconds): a crashed request frees its key after this. */
export const LEASE_SECONDS = 10;

/** Who a record belongs to: a sandbox, or null for the service's own (POST /sandboxes). */
export interface RecordOwner {
  sandboxId: string | null;
  lookup: Buffer;
}

/** What a claim found: the key is ours to run, or another request's record. */
export type ClaimOutcome = { claimed: true } | { claimed: false; fingerprint: Buffer; answer: Buffer | null };

/** Statements retried when a concurrent claim committed after this statement's snapshot. */
const CLAIM_ATTEMPTS = 5;

/**
 * `idempotency_record` (contract §15): claims, kept answers and their expiry. The service's table
 * for sandbox data and its own alike (sandbox_id null), so it uses the DataSource and names the
 * sandbox in every statement itself. Outside any transaction: a claim is committed before the use
 * case runs, so a concurrent duplicate on any instance sees it. Its statements are prepared, as
 * SandboxDb's are: the claim's planning was most of what a new key cost a request (issue 19).
 */
@Injectable()
export class IdempotencyStore {
  private readonly statements: PreparedStatements;

  constructor(dataSource: DataSource) {
    this.statements = new PreparedStatements(dataSource);
  }

  private query(sql: string, values: unknown[]): Promise<unknown> {
    return this.statements.query(undefined, sql, values);
  }

  /**
   * One statement: inserts the claim, or takes over a record whose claim lease ran out or whose
   * answer expired (`now`: the sandbox clock, null for the service's real time), else reads the
   * record found. `expiresAt` null: 24 real hours.
   */
  async claim(owner: RecordOwner, fingerprint: Buffer, holder: string, now: Date | null, expiresAt: Date | null): Promise<ClaimOutcome> {
    for (let attempt = 0; attempt < CLAIM_ATTEMPTS; attempt++) {
      const rows = returnedRows<{ claimed: boolean | null; fingerprint: Buffer | null; answer: Buffer | null }>(
        await this.query(
          `WITH claimed AS (
             INSERT INTO idempotency_record AS r (sandbox_id, lookup, fingerprint, holder, leased_until, expires_at)
             VALUES ($1::text, $2, $3, $4, now() + make_interval(secs => ${LEASE_SECONDS}), COALESCE($5::timestamptz, now() + interval '24 hours'))
             ON CONFLICT (lookup) DO UPDATE
               SET fingerprint = EXCLUDED.fingerprint, holder = EXCLUDED.holder, leased_until = EXCLUDED.leased_until, answer = NULL, expires_at = EXCLUDED.expires_at
               WHERE r.sandbox_id IS NOT DISTINCT FROM $1::text
                 AND ((r.answer IS NULL AND r.leased_until < now()) OR r.expires_at <= COALESCE($6::timestamptz, now()))
             RETURNING true AS claimed)
           SELECT (SELECT claimed FROM claimed) AS claimed, found.fingerprint, found.answer
             FROM (SELECT 1) one
             LEFT JOIN idempotency_record found
               ON found.lookup = $2 AND found.sandbox_id IS NOT DISTINCT FROM $1::text AND NOT EXISTS (SELECT 1 FROM claimed)`,
          [owner.sandboxId, owner.lookup, fingerprint, holder, expiresAt, now],
        ),
      );
      const row = rows[0];
      if (row?.claimed) return { claimed: true };
      // Found: another request's record. Not found: a claim committed after this statement began,
      // or a record released meanwhile; the next statement sees which.
      if (row?.fingerprint) return { claimed: false, fingerprint: row.fingerprint, answer: row.answer };
    }
    throw new Error('Idempotency-Key claim kept racing with concurrent requests');
  }

  /** Extends a running claim's lease (long use cases). */
  async renew(owner: RecordOwner, holder: string): Promise<void> {
    await this.query(
      `UPDATE idempotency_record SET leased_until = now() + make_interval(secs => ${LEASE_SECONDS})
        WHERE lookup = $2 AND sandbox_id IS NOT DISTINCT FROM $1::text AND holder = $3`,
      [owner.sandboxId, owner.lookup, holder],
    );
  }

  /**
   * Keeps the answer of a claim this holder still owns (a taken-over claim is not overwritten),
   * until `expiresAt` (null: 24 real hours from now).
   */
  async complete(owner: RecordOwner, holder: string, answer: Buffer, expiresAt: Date | null): Promise<void> {
    await this.query(
      `UPDATE idempotency_record SET answer = $4, holder = NULL, leased_until = NULL, expires_at = COALESCE($5::timestamptz, now() + interval '24 hours')
        WHERE lookup = $2 AND sandbox_id IS NOT DISTINCT FROM $1::text AND holder = $3`,
      [owner.sandboxId, owner.lookup, holder, answer, expiresAt],
    );
  }

  /** Gives the key back: the request ran nothing worth keeping (contract §15). */
  async release(owner: RecordOwner, holder: string): Promise<void> {
    await this.query(`DELETE FROM idempotency_record WHERE lookup = $2 AND sandbox_id IS NOT DISTINCT FROM $1::text AND holder = $3`, [
      owner.sandboxId,
      owner.lookup,
      holder,
    ]);
  }

  /**
   * Deletes up to `batch` records past their expiry, each on its own sandbox's clock (the service's
   * on real time), claims only once their lease ran out too. Returns how many went.
   */
  async deleteExpired(batch: number): Promise<number> {
    const rows: unknown = await this.query(
      `DELETE FROM idempotency_record r
        USING (SELECT i.lookup FROM idempotency_record i LEFT JOIN sandbox_now n ON n.sandbox_id = i.sandbox_id
                WHERE i.expires_at <= COALESCE(n.now, now()) AND (i.answer IS NOT NULL OR i.leased_until < now())
                LIMIT $1) doomed
        WHERE r.lookup = doomed.lookup
        RETURNING r.sandbox_id`,
      [batch],
    );
    return returnedRows(rows).length;
  }
}
