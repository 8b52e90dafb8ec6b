import { formatStockholmOffset, stockholmInstant } from '@app/common';

/**
 * The bank's planned downtime (bank §8), as it states it: Europe/Stockholm wall-clock times. The
 * instants come from the time-zone rules (Intl), so a window on a daylight-saving day is right.
 */
const CALENDAR = [
  { from: '05:00', to: '07:45', dates: ['2025-03-23', '2025-04-27', '2025-05-25', '2025-06-29', '2025-07-27', '2025-08-24', '2025-09-21', '2025-10-26', '2025-11-23', '2025-12-20'] },
  {
    from: '04:00',
    to: '07:45',
    dates: [
      '2026-03-29', '2026-04-19', '2026-04-26', '2026-05-17', '2026-05-24', '2026-06-14', '2026-06-21', '2026-07-19',
      '2026-07-26', '2026-08-16', '2026-08-23', '2026-09-20', '2026-09-27', '2026-10-18', '2026-10-25', '2026-11-15', '2026-11-22',
    ],
  },
] as const;

export interface DowntimeWindow {
  start: Date;
  end: Date;
}

const at = (date: string, time: string) => stockholmInstant(date, Number(time.slice(0, 2)), Number(time.slice(3, 5)));

/** Every window, in order. */
export const DOWNTIME_WINDOWS: readonly DowntimeWindow[] = CALENDAR.flatMap(({ from, to, dates }) =>
  dates.map((date) => ({ start: at(date, from), end: at(date, to) })),
).sort((a, b) => a.start.getTime() - b.start.getTime());

/** The windows' bounds as numbers: checked on every bank request (issue 19). */
const BOUNDS = DOWNTIME_WINDOWS.map((window) => ({ window, startMs: window.start.getTime(), endMs: window.end.getTime() }));

/** The window `now` is in: from its start (inclusive) to its end (exclusive). */
export function activeWindow(now: Date): DowntimeWindow | null {
  const nowMs = now.getTime();
  return BOUNDS.find(({ startMs, endMs }) => startMs <= nowMs && nowMs < endMs)?.window ?? null;
}

/** Contract §7: ISO 8601 with the Stockholm offset. */
export const formatWindow = (window: DowntimeWindow) => ({ start: formatStockholmOffset(window.start), end: formatStockholmOffset(window.end) });
