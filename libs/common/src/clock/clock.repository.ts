import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { entityRows } from '../database/entity-rows';
import { ClockState } from './clock-state';
import { SandboxClockEntity } from './sandbox-clock.entity';

/** The single sandbox_clock row (id 1, created by the migration). Every change is one statement. */
@Injectable()
export class ClockRepository {
  private readonly rows = entityRows(this.dataSource, SandboxClockEntity, ['id']);

  constructor(private readonly dataSource: DataSource) {}

  async read(): Promise<ClockState> {
    return this.state(await this.dataSource.query(`SELECT ${this.rows.select()} FROM sandbox_clock WHERE id = 1`));
  }

  async set(sandboxNow: Date, realNow: Date, frozen: boolean): Promise<ClockState> {
    return this.write(
      `UPDATE sandbox_clock SET sandbox_anchor = $1, real_anchor = $2, frozen = $3 WHERE id = 1
       RETURNING ${this.rows.select()}`,
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
        RETURNING ${this.rows.select()}`,
      [realNow, seconds],
    );
  }

  async reset(): Promise<ClockState> {
    return this.write(
      `UPDATE sandbox_clock SET sandbox_anchor = NULL, real_anchor = NULL, frozen = false WHERE id = 1
       RETURNING ${this.rows.select()}`,
      [],
    );
  }

  private async write(sql: string, parameters: unknown[]): Promise<ClockState> {
    return this.state(await this.dataSource.query(sql, parameters));
  }

  /** The row always exists: the migration created it. */
  private state(result: unknown): ClockState {
    return this.rows.first(result) as ClockState;
  }
}
