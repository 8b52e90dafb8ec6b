import { Injectable } from '@nestjs/common';
import { returnedRows } from '../database/returned-rows';
import { SandboxDb } from '../sandbox/sandbox-db';
import { DeletedSandbox } from '../sandbox/sandbox-registry';
import { ClockState } from './clock-state';
import { SandboxClockEntity } from './sandbox-clock.entity';

/** A clock row with the database's clock_timestamp() when it was read or written (undefined: unknown). */
export interface DatabaseTime extends ClockState {
  dbNow?: Date;
}

/** The clock row read together with its sandbox's generation (bumped by reset and delete) and downtime setting. */
export interface SandboxRead extends DatabaseTime {
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
      `SELECT ${this.rows.select('c')}, s.generation::text AS generation, s.downtime_calendar, clock_timestamp() AS db_now
         FROM sandbox_clock c JOIN sandbox s ON s.id = c.sandbox_id
        WHERE c.sandbox_id = $1`,
    );
    const row = (result as Array<{ generation: string; downtime_calendar: boolean | null }>)[0];
    // Deleted while this request ran (the routing's check is cached for under a second): its 404.
    if (!row) throw new DeletedSandbox();
    return { ...this.state(result), generation: row.generation, downtimeCalendar: row.downtime_calendar };
  }

  // Every change anchors real time with the database's clock_timestamp(), the real now of the
  // set-based job queries (the sandbox_now view), so a process clock that drifts cannot make the
  // two disagree; each answer brings the database's now along (DatabaseTime).

  async set(sandboxNow: Date, frozen: boolean): Promise<DatabaseTime> {
    return this.write(
      `UPDATE sandbox_clock SET sandbox_anchor = $2, real_anchor = clock_timestamp(), frozen = $3 WHERE sandbox_id = $1
       RETURNING ${this.rows.select()}, real_anchor AS db_now`,
      [sandboxNow, frozen],
    );
  }

  /**
   * Moves the clock forward atomically, so concurrent advances from several instances add up; null,
   * with nothing written, when that would take it past `latest` (the bound is checked on the row as
   * the update finds it, so two advances that each fit cannot pass it together).
   */
  async advance(seconds: number, latest: Date): Promise<DatabaseTime | null> {
    const moved = `COALESCE(sandbox_anchor + CASE WHEN frozen THEN interval '0' ELSE real.now - real_anchor END, real.now) + make_interval(secs => $2)`;
    const result = await this.db.query(
      `WITH real AS (SELECT clock_timestamp() AS now)
       UPDATE sandbox_clock
          SET sandbox_anchor = ${moved},
              real_anchor = real.now
         FROM real
        WHERE sandbox_id = $1 AND ${moved} <= $3
        RETURNING ${this.rows.select('sandbox_clock')}, real.now AS db_now`,
      [seconds, latest],
    );
    return returnedRows(result).length === 0 ? null : this.state(result);
  }

  async reset(): Promise<DatabaseTime> {
    return this.write(
      `UPDATE sandbox_clock SET sandbox_anchor = NULL, real_anchor = NULL, frozen = false WHERE sandbox_id = $1
       RETURNING ${this.rows.select()}, clock_timestamp() AS db_now`,
      [],
    );
  }

  private async write(sql: string, parameters: unknown[]): Promise<DatabaseTime> {
    return this.state(await this.db.query(sql, parameters));
  }

  /** The row exists for every sandbox: the migration (and later sandbox creation) writes it. */
  private state(result: unknown): DatabaseTime {
    const dbNow = (result as Array<{ db_now: Date | string }>)[0]?.db_now;
    return { ...(this.rows.first(result) as ClockState), dbNow: dbNow === undefined ? undefined : new Date(dbNow) };
  }
}
