import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { Clock, JobRegistry, SandboxDb } from '@app/common';
import { DOWNTIME_WINDOWS, formatWindow } from './downtime-calendar';

const OBSERVED_UNTIL = 'downtime_observed_until';

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
    this.registry.register({ name: 'downtime-bookkeeping', run: () => this.record() });
  }

  async record(): Promise<void> {
    const now = this.clock.now();
    const rows: Array<{ value: string }> = await this.db.query(
      `INSERT INTO sandbox_meta (sandbox_id, key, value) VALUES ($1, $2, $3)
       ON CONFLICT (sandbox_id, key) DO UPDATE SET value = EXCLUDED.value
       RETURNING (SELECT value FROM sandbox_meta WHERE sandbox_id = $1 AND key = $2) AS value`,
      [OBSERVED_UNTIL, now.toISOString()],
    );
    const previous = rows[0]?.value ? new Date(rows[0].value) : null;
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
