import { Injectable } from '@nestjs/common';
import { returnedRows, SandboxCache, SandboxClock, SandboxDb } from '@app/common';
import { eidOrdersOf } from '@app/eid';
import { Psd2AuthorizationEntity, type StartMode } from './psd2-authorization.entity';

/** What never changes about an authentication once started: safe to keep in process memory. */
export interface AuthorizationRef {
  pendingCodeHash: string;
  tppId: string;
  eidOrderId: string;
  startMode: StartMode;
}

@Injectable()
export class Psd2AuthorizationRepository {
  /** Per sandbox and generation: a code's hash is only meaningful in its own sandbox. */
  private readonly refs: SandboxCache<AuthorizationRef>;

  constructor(
    private readonly db: SandboxDb,
    clock: SandboxClock,
  ) {
    this.refs = new SandboxCache(clock);
  }

  /**
   * The immutable part of an authentication, read once per instance: status polls of AUTO_START
   * authentications then cost no query here at all. Keyed by the code's hash, like the table, so
   * no clear code stays in memory either.
   */
  async findRef(pendingCodeHash: string, tppId: string): Promise<AuthorizationRef | null> {
    const cached = this.refs.lookup(pendingCodeHash);
    if (cached) return cached.tppId === tppId ? cached : null;
    const found = await this.findOwned(pendingCodeHash, tppId);
    if (!found) return null;
    const ref = { pendingCodeHash, tppId, eidOrderId: found.eidOrderId, startMode: found.startMode };
    this.refs.remember(pendingCodeHash, ref);
    return ref;
  }

  async insert(authorization: Psd2AuthorizationEntity): Promise<void> {
    await this.db.insert(Psd2AuthorizationEntity, authorization);
  }

  /**
   * Deletes every authentication whose eid order's subject is the person (who authenticates: the
   * user chosen in the simulator, contract §4), exchanged or not: its pending code is unknown from
   * then on. Other instances' cached refs go with the sandbox's next generation (ConsentService).
   */
  async deleteOfSubject(personalNumber: string): Promise<void> {
    await this.db.query(`DELETE FROM psd2_authorization WHERE sandbox_id = $1 AND eid_order_id IN (${eidOrdersOf('$2')})`, [personalNumber]);
  }

  /** By the pending code's SHA-256 (hashUuidSecret). */
  findOwned(pendingCodeHash: string, tppId: string): Promise<Psd2AuthorizationEntity | null> {
    return this.db.findOneBy(Psd2AuthorizationEntity, { pendingCodeHash, tppId });
  }

  /**
   * Records a QR_CODE status call in one statement, unless it comes less than a second after the last
   * answered one; false when refused. Several instances share the rule. The second is REAL time, the
   * database's clock_timestamp(), not the sandbox clock: the rule is about the client's behaviour, and
   * polling must work with a frozen sandbox clock (contract §5).
   */
  async recordQrPoll(pendingCodeHash: string): Promise<boolean> {
    const rows = returnedRows(
      await this.db.query(
        `UPDATE psd2_authorization SET last_polled_at = clock_timestamp()
          WHERE sandbox_id = $1 AND pending_code_hash = $2
            AND (last_polled_at IS NULL
                 OR last_polled_at <= clock_timestamp() - interval '1 second'
                 OR last_polled_at > clock_timestamp()) -- a sandbox-clock time written before the rule moved to real time
          RETURNING 1`,
        [pendingCodeHash],
      ),
    );
    return rows.length === 1;
  }

  /** Real milliseconds since the last answered QR_CODE poll (read on a refused poll only, for its hint). */
  async msSinceLastPoll(pendingCodeHash: string): Promise<number | null> {
    const rows = returnedRows<{ elapsed_ms: number | string | null }>(
      await this.db.query(
        `SELECT floor(extract(epoch FROM clock_timestamp() - last_polled_at) * 1000)::int AS elapsed_ms
           FROM psd2_authorization WHERE sandbox_id = $1 AND pending_code_hash = $2`,
        [pendingCodeHash],
      ),
    );
    const elapsed = rows[0]?.elapsed_ms;
    return elapsed === null || elapsed === undefined ? null : Math.max(0, Number(elapsed));
  }

  /** Marks the code used; false when it already was (single use, atomic). */
  async claimExchange(pendingCodeHash: string, now: Date): Promise<boolean> {
    const rows = returnedRows(
      await this.db.query(
        `UPDATE psd2_authorization SET exchanged_at = $3 WHERE sandbox_id = $1 AND pending_code_hash = $2 AND exchanged_at IS NULL RETURNING 1`,
        [pendingCodeHash, now],
      ),
    );
    return rows.length === 1;
  }
}
