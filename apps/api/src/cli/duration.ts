const SECONDS_PER_UNIT: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400, w: 604_800 };
const PART = /(\d+(?:\.\d+)?)([smhdw])/gy;

export const DURATION_FORMS = 'seconds (90, 0.5) or numbers with units s, m, h, d, w (90s, 30m, 2h, 1d, 1h30m)';

/**
 * "90" / "90s" / "30m" / "2h" / "1d" / "1h30m" → seconds, to the millisecond; null when the text is
 * not such a duration (negative, empty, unknown unit). Whether it is too long is the sandbox's rule.
 */
export function parseDuration(text: string): number | null {
  const trimmed = text.trim().toLowerCase();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return round(Number(trimmed));
  if (trimmed === '') return null;
  let seconds = 0;
  PART.lastIndex = 0;
  let consumed = 0;
  for (let match = PART.exec(trimmed); match; match = PART.exec(trimmed)) {
    seconds += Number(match[1]) * SECONDS_PER_UNIT[match[2]];
    consumed = PART.lastIndex;
  }
  return consumed === trimmed.length ? round(seconds) : null;
}

const round = (seconds: number) => Math.round(seconds * 1000) / 1000;

/** 5400 → "1h30m", 90.5 → "1m30.5s", 0 → "0s": how the command line echoes a duration. */
export function formatDuration(seconds: number): string {
  let rest = seconds;
  let text = '';
  for (const [unit, size] of [['d', 86_400], ['h', 3600], ['m', 60]] as const) {
    const whole = Math.floor(rest / size);
    if (whole > 0) text += `${whole}${unit}`;
    rest = round(rest - whole * size);
  }
  return rest > 0 || text === '' ? `${text}${rest}s` : text;
}
