import { activeWindow, DOWNTIME_WINDOWS, formatWindow } from './downtime-calendar';

describe('planned downtime calendar (bank §8)', () => {
  it('has every window of bank §8: ten in 2025 from 05:00, seventeen in 2026 from 04:00, all to 07:45', () => {
    expect(DOWNTIME_WINDOWS).toHaveLength(27);
    expect(formatWindow(DOWNTIME_WINDOWS[0])).toEqual({ start: '2025-03-23T05:00:00+01:00', end: '2025-03-23T07:45:00+01:00' });
    expect(formatWindow(DOWNTIME_WINDOWS[26])).toEqual({ start: '2026-11-22T04:00:00+01:00', end: '2026-11-22T07:45:00+01:00' });
  });

  it('is wall-clock time across daylight-saving changes: 2026-03-29 04:00 is already summer time (+02:00)', () => {
    const dstDay = DOWNTIME_WINDOWS.find((w) => formatWindow(w).start.startsWith('2026-03-29'))!;
    expect(dstDay.start.toISOString()).toBe('2026-03-29T02:00:00.000Z');
    expect(formatWindow(dstDay)).toEqual({ start: '2026-03-29T04:00:00+02:00', end: '2026-03-29T07:45:00+02:00' });
    const lastSummer = DOWNTIME_WINDOWS.find((w) => formatWindow(w).start.startsWith('2026-10-25'))!;
    expect(lastSummer.start.toISOString()).toBe('2026-10-25T03:00:00.000Z');
    expect(formatWindow(lastSummer).start).toBe('2026-10-25T04:00:00+01:00');
  });

  it('a window is active from its start to just before its end', () => {
    expect(activeWindow(new Date('2026-11-22T02:59:59.999Z'))).toBeNull();
    expect(activeWindow(new Date('2026-11-22T03:00:00Z'))).not.toBeNull();
    expect(activeWindow(new Date('2026-11-22T06:44:59.999Z'))).not.toBeNull();
    expect(activeWindow(new Date('2026-11-22T06:45:00Z'))).toBeNull();
  });
});
