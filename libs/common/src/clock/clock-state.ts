/**
 * The one row of contract §6: now = sandbox_anchor + (frozen ? 0 : real now − real_anchor).
 * No anchors: real time.
 */
export interface ClockState {
  sandboxAnchor: Date | null;
  realAnchor: Date | null;
  frozen: boolean;
}

export const REAL_TIME: ClockState = { sandboxAnchor: null, realAnchor: null, frozen: false };

export function sandboxNow(state: ClockState, realNowMs: number): Date {
  if (!state.sandboxAnchor || !state.realAnchor) return new Date(realNowMs);
  const elapsed = state.frozen ? 0 : realNowMs - state.realAnchor.getTime();
  return new Date(state.sandboxAnchor.getTime() + elapsed);
}
