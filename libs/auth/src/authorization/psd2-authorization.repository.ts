import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { returnedRows } from '@app/common';
import { Psd2AuthorizationEntity, type StartMode } from './psd2-authorization.entity';

export interface PolledAuthorization {
  eidOrderId: string;
  startMode: StartMode;
}

@Injectable()
export class Psd2AuthorizationRepository {
  constructor(@InjectRepository(Psd2AuthorizationEntity) private readonly authorizations: Repository<Psd2AuthorizationEntity>) {}

  async insert(authorization: Psd2AuthorizationEntity): Promise<void> {
    await this.authorizations.insert(authorization);
  }

  findOwned(pendingCode: string, tppId: string): Promise<Psd2AuthorizationEntity | null> {
    return this.authorizations.findOneBy({ pendingCode, tppId });
  }

  /**
   * Records a status call in one statement, unless it comes less than a second (sandbox time) after
   * the last answered one in QR_CODE mode. Null when refused or not found; `findOwned` tells which.
   */
  async recordPoll(pendingCode: string, tppId: string, now: Date): Promise<PolledAuthorization | null> {
    const rows = returnedRows<{ eid_order_id: string; start_mode: StartMode }>(
      await this.authorizations.manager.query(
        `UPDATE psd2_authorization SET last_polled_at = $3
          WHERE pending_code = $1 AND tpp_id = $2
            AND (start_mode <> 'QR_CODE' OR last_polled_at IS NULL
                 OR last_polled_at <= $3::timestamptz - interval '1 second'
                 OR last_polled_at > $3) -- the clock was moved back: start afresh
          RETURNING eid_order_id, start_mode`,
        [pendingCode, tppId, now],
      ),
    );
    return rows[0] ? { eidOrderId: rows[0].eid_order_id, startMode: rows[0].start_mode } : null;
  }

  /** Marks the code used; false when it already was (single use, atomic). */
  async claimExchange(pendingCode: string, now: Date): Promise<boolean> {
    const rows = returnedRows(
      await this.authorizations.manager.query(
        `UPDATE psd2_authorization SET exchanged_at = $2 WHERE pending_code = $1 AND exchanged_at IS NULL RETURNING pending_code`,
        [pendingCode, now],
      ),
    );
    return rows.length === 1;
  }
}
