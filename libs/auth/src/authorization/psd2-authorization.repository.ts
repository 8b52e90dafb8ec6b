import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { returnedRows } from '@app/common';
import { Psd2AuthorizationEntity, type StartMode } from './psd2-authorization.entity';

/** What never changes about an authentication once started: safe to keep in process memory. */
export interface AuthorizationRef {
  pendingCodeHash: string;
  tppId: string;
  eidOrderId: string;
  startMode: StartMode;
}

const CACHE_CAPACITY = 10_000;

@Injectable()
export class Psd2AuthorizationRepository {
  private readonly refs = new Map<string, AuthorizationRef>();

  constructor(@InjectRepository(Psd2AuthorizationEntity) private readonly authorizations: Repository<Psd2AuthorizationEntity>) {}

  /**
   * The immutable part of an authentication, read once per instance: status polls of AUTO_START
   * authentications then cost no query here at all. Keyed by the code's hash, like the table, so
   * no clear code stays in memory either.
   */
  async findRef(pendingCodeHash: string, tppId: string): Promise<AuthorizationRef | null> {
    const cached = this.refs.get(pendingCodeHash);
    if (cached) return cached.tppId === tppId ? cached : null;
    const found = await this.findOwned(pendingCodeHash, tppId);
    if (!found) return null;
    const ref = { pendingCodeHash, tppId, eidOrderId: found.eidOrderId, startMode: found.startMode };
    if (this.refs.size >= CACHE_CAPACITY) this.refs.delete(this.refs.keys().next().value as string);
    this.refs.set(pendingCodeHash, ref);
    return ref;
  }

  async insert(authorization: Psd2AuthorizationEntity): Promise<void> {
    await this.authorizations.insert(authorization);
  }

  /** By the pending code's SHA-256 (hashUuidSecret). */
  findOwned(pendingCodeHash: string, tppId: string): Promise<Psd2AuthorizationEntity | null> {
    return this.authorizations.findOneBy({ pendingCodeHash, tppId });
  }

  /**
   * Records a QR_CODE status call in one statement, unless it comes less than a second after the last
   * answered one; false when refused. Several instances share the rule. The second is REAL time, the
   * database's clock_timestamp(), not the sandbox clock: the rule is about the client's behaviour, and
   * polling must work with a frozen sandbox clock (contract §5).
   */
  async recordQrPoll(pendingCodeHash: string): Promise<boolean> {
    const rows = returnedRows(
      await this.authorizations.manager.query(
        `UPDATE psd2_authorization SET last_polled_at = clock_timestamp()
          WHERE pending_code_hash = $1
            AND (last_polled_at IS NULL
                 OR last_polled_at <= clock_timestamp() - interval '1 second'
                 OR last_polled_at > clock_timestamp()) -- a sandbox-clock time written before the rule moved to real time
          RETURNING 1`,
        [pendingCodeHash],
      ),
    );
    return rows.length === 1;
  }

  /** Marks the code used; false when it already was (single use, atomic). */
  async claimExchange(pendingCodeHash: string, now: Date): Promise<boolean> {
    const rows = returnedRows(
      await this.authorizations.manager.query(
        `UPDATE psd2_authorization SET exchanged_at = $2 WHERE pending_code_hash = $1 AND exchanged_at IS NULL RETURNING 1`,
        [pendingCodeHash, now],
      ),
    );
    return rows.length === 1;
  }
}
