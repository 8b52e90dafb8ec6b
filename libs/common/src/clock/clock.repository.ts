import { Injectable } from '@nestjs/common';
import { SandboxDb } from '../sandbox/sandbox-db';
import { DeletedSandbox } from '../sandbox/sandbox-registry';
import { ClockState } from './clock-state';
import { SandboxClockEntity } from './sandbox-clock.entity';

/** The clock row read together with its sandbox's generation (bumped by reset and delete) and downtime setting. */
export interface SandboxRead extends ClockState {
  generation: string;
  /** The sandbox's planned-downtime calendar (contract §13 POST /sandboxes); null: the service's DOWNTIME_CALENDAR. */
  downtimeCalendar: boolean | null;
}

/** The context's sandbox's sandbox_clock row (one per sandbox, contract §6/§13). Every change is one statement. */
@Injectable()
export class ClockRepository {
  private readonly rows = this.db.rows(SandboxClockEntity);

  constructor(private readonly db: SandboxDb) {}

  async read(): Promise<SandboxRead> {
    const result = await this.db.query(
      `SELECT ${this.rows.select('c')}, s.generation::text AS generation, s.downtime_calendar
         FROM sandbox_clock c JOIN sandbox s ON s.id = c.sandbox_id
        WHERE c.sandbox_id = $1`,
    );
    const row = (result as Array<{ generation: string; downtime_calendar: boolean | null }>)[0];
    // Deleted while this request ran (the routing's check is cached for under a second): its 404.
    if (!row) throw new DeletedSandbox();
    return { ...this.state(result), generation: row.generation, downtimeCalendar: row.downtime_calendar };
  }

  async set(sandboxNow: Date, realNow: Date, frozen: boolean): Promise<ClockState> {
    return this.write(
      `UPDATE sandbox_clock SET sandbox_anchor = $2, real_anchor = $3, frozen = $4 WHERE sandbox_id = $1
       RETURNING ${this.rows.select()}`,
      [sandboxNow, realNow, frozen],
    );
  }

  /** Moves the clock forward atomically, so concurrent advances from several instances add up. */
  async advance(seconds: number, realNow: Date): Promise<ClockState> {
    return this.write(
      `UPDATE sandbox_clock
          SET sandbox_anchor = COALESCE(
                sandbox_anchor + CASE WHEN frozen THEN interval '0' ELSE $2::timestamptz - real_anchor END,
                $2::timestamptz) + make_interval(secs => $3),
              real_anchor = $2
        WHERE sandbox_id = $1
        RETURNING ${this.rows.select()}`,
      [realNow, seconds],
    );
  }

  async reset(): Promise<ClockState> {
    return this.write(
      `UPDATE sandbox_clock SET sandbox_anchor = NULL, real_anchor = NULL, frozen = false WHERE sandbox_id = $1
       RETURNING ${this.rows.select()}`,
      [],
    );
  }

  private async write(sql: string, parameters: unknown[]): Promise<ClockState> {
    return this.state(await this.db.query(sql, parameters));
  }

  /** The row exists for every sandbox: the migration (and later sandbox creation) writes it. */
  private state(result: unknown): ClockState {
    return this.rows.first(result) as ClockState;
  }
}
