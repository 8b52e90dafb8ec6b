import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { Clock, type DueWork, JobRegistry, SandboxDb } from '@app/common';
import { DOWNTIME_WINDOWS, formatWindow } from './downtime-calendar';

const OBSERVED_UNTIL = 'downtime_observed_until';
/** An observation as record() writes it (toISOString): the only form due() and record() read. */
const OBSERVATION_FORM = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
/** Every window's start and end, ascending: the instants whose passing record() writes down. */
const BOUNDARIES = [...new Set(DOWNTIME_WINDOWS.flatMap((window) => [window.start.getTime(), window.end.getTime()]))].sort((a, b) => a - b).map((ms) => new Date(ms));

/**
 * The calendar's bookkeeping job (contract §6, §7): each window's start and end, as the sandbox clock
 * passes them, recorded once in the log and in maintenance_window_event. Only what the clock passes
 * between two runs counts: jumping the clock into 2027 does not replay history, and moving it back
 * starts afresh.
 */
@Injectable()
export class DowntimeBookkeeping implements OnModuleInit {
  private readonly logger = new Logger('PlannedDowntime');

  constructor(
    private readonly db: SandboxDb,
    private readonly registry: JobRegistry,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    this.registry.register({ name: 'downtime-bookkeeping', run: () => this.record(), due: () => this.due() });
  }

  /**
   * The sandboxes where record() has something to do, each by its own clock (the scheduled pass over
   * every sandbox, contract §13 Time and jobs): never observed, clock moved back, or a window's start
   * or end passed since the last observation. Elsewhere a run would only move the observation
   * forward over nothing, which changes nothing a later run records. width_bucket counts the
   * boundaries at or before an instant (a binary search): more at now than at the observation means
   * one was passed.
   */
  due(): DueWork {
    // One statement reads every sandbox's observation: a value it cannot cast (a clock once moved
    // past year 9999 wrote +010000-…) would fail the job for all, so it is read only when it has
    // toISOString's form (CASE keeps the cast from running on the rest), and counts as never observed.
    return {
      sql: `SELECT o.sandbox_id FROM (
              SELECT n.sandbox_id, n.now,
                     CASE WHEN m.value ~ $3 THEN m.value::timestamptz END AS observed
                FROM sandbox_now n LEFT JOIN sandbox_meta m ON m.sandbox_id = n.sandbox_id AND m.key = $1) o
             WHERE o.observed IS NULL OR o.observed > o.now
                OR width_bucket(o.now, $2::timestamptz[]) > width_bucket(o.observed, $2::timestamptz[])`,
      parameters: [OBSERVED_UNTIL, BOUNDARIES, OBSERVATION_FORM.source],
    };
  }

  async record(): Promise<void> {
    const now = this.clock.now();
    const rows: Array<{ value: string }> = await this.db.query(
      `INSERT INTO sandbox_meta (sandbox_id, key, value) VALUES ($1, $2, $3)
       ON CONFLICT (sandbox_id, key) DO UPDATE SET value = EXCLUDED.value
       RETURNING (SELECT value FROM sandbox_meta WHERE sandbox_id = $1 AND key = $2) AS value`,
      [OBSERVED_UNTIL, now.toISOString()],
    );
    const previous = rows[0]?.value && OBSERVATION_FORM.test(rows[0].value) ? new Date(rows[0].value) : null;
    if (!previous || previous > now) return;
    for (const window of DOWNTIME_WINDOWS) {
      for (const [event, at] of [['started', window.start], ['ended', window.end]] as const) {
        if (at <= previous || at > now) continue;
        const inserted: unknown[] = await this.db.query(
          `INSERT INTO maintenance_window_event (sandbox_id, window_start, event, occurred_at, observed_at) VALUES ($1, $2, $3, $4, $5)
           ON CONFLICT (sandbox_id, window_start, event) DO NOTHING RETURNING event`,
          [window.start, event, at, now],
        );
        if (inserted.length > 0) this.logger.log({ window: formatWindow(window), event }, `planned downtime ${event}`);
      }
    }
  }
}
