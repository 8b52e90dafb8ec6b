import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { returnedRows } from '../database/returned-rows';
import { ClockState } from './clock-state';

interface ClockRow {
  sandbox_anchor: Date | null;
  real_anchor: Date | null;
  frozen: boolean;
}

const toState = (row: ClockRow): ClockState => ({
  sandboxAnchor: row.sandbox_anchor,
  realAnchor: row.real_anchor,
  frozen: row.frozen,
});

/** The single sandbox_clock row (id 1, created by the migration). Every change is one statement. */
@Injectable()
export class ClockRepository {
  constructor(private readonly dataSource: DataSource) {}

  async read(): Promise<ClockState> {
    const rows: ClockRow[] = await this.dataSource.query(
      'SELECT sandbox_anchor, real_anchor, frozen FROM sandbox_clock WHERE id = 1',
    );
    return toState(rows[0]);
  }

  async set(sandboxNow: Date, realNow: Date, frozen: boolean): Promise<ClockState> {
    return this.write(
      `UPDATE sandbox_clock SET sandbox_anchor = $1, real_anchor = $2, frozen = $3 WHERE id = 1
       RETURNING sandbox_anchor, real_anchor, frozen`,
      [sandboxNow, realNow, frozen],
    );
  }

  /** Moves the clock forward atomically, so concurrent advances from several instances add up. */
  async advance(seconds: number, realNow: Date): Promise<ClockState> {
    return this.write(
      `UPDATE sandbox_clock
          SET sandbox_anchor = COALESCE(
                sandbox_anchor + CASE WHEN frozen THEN interval '0' ELSE $1::timestamptz - real_anchor END,
                $1::timestamptz) + make_interval(secs => $2),
              real_anchor = $1
        WHERE id = 1
        RETURNING sandbox_anchor, real_anchor, frozen`,
      [realNow, seconds],
    );
  }

  async reset(): Promise<ClockState> {
    return this.write(
      `UPDATE sandbox_clock SET sandbox_anchor = NULL, real_anchor = NULL, frozen = false WHERE id = 1
       RETURNING sandbox_anchor, real_anchor, frozen`,
      [],
    );
  }

  private async write(sql: string, parameters: unknown[]): Promise<ClockState> {
    const result: unknown = await this.dataSource.query(sql, parameters);
    return toState(returnedRows<ClockRow>(result)[0]);
  }
}
