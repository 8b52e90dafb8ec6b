/**
 * The signing rules of bank §7.2 as pinned by contract §11, one table. State per personal number
 * (shared by every partner, as the identity service is): the open order with the kind and caller IP of
 * the call that made it, whether a same-IP retry is armed, and a block time.
 */
export type StartKind = 'start' | 'phone';

export interface OpenOrder {
  kind: StartKind;
  ip: string;
  /** A same-IP start was refused once; the next one from that IP replaces the order. */
  retryArmed: boolean;
  /** The order was open when a refusal blocked the person, and that block has ended. */
  outlivedBlock: boolean;
}

export interface StartCall {
  kind: StartKind;
  ip: string;
}

export type Decision =
  /** Start a new order (nothing open). */
  | { outcome: 'start' }
  /** Cancel the open order (FAILED CANCELLED) and start a new one. */
  | { outcome: 'replace' }
  /** 409 RFA4_SIGNING_IN_PROGRESS; optionally arm the same-IP retry or block the person for seconds. */
  | { outcome: 'refuse'; armRetry?: true; blockSeconds?: number };

/** Contract §11: about 3 minutes after starts from different IPs, about 1 minute after two phone starts. */
export const DIFFERENT_IP_BLOCK_S = 180;
export const PHONE_REPEAT_BLOCK_S = 60;

/**
 * | Open order        | New call                  | Outcome                                          |
 * | none              | start / start/phone       | new order                                        |
 * | start from IP A   | start from IP A           | 409, then the next one replaces the order: 200, 409, 200 … |
 * | start from IP A   | start from IP B           | 409 and blocked 180 s                            |
 * | phone             | start/phone               | 409 and blocked 60 s                             |
 * | start ↔ phone     | the other kind            | 409 (no block)                                   |
 * Blocks and busy_elsewhere are checked before this table (every call 409). "Blocks end at exactly
 * their time (a call at block end succeeds)": an order still open when its block ends (a phone
 * order lives 180 s, its block 60 s) is replaced by the first call after it, whatever the table says.
 */
export function decide(open: OpenOrder | null, call: StartCall): Decision {
  if (!open) return { outcome: 'start' };
  if (open.outlivedBlock) return { outcome: 'replace' };
  if (open.kind === 'start' && call.kind === 'start') {
    if (open.ip !== call.ip) return { outcome: 'refuse', blockSeconds: DIFFERENT_IP_BLOCK_S };
    return open.retryArmed ? { outcome: 'replace' } : { outcome: 'refuse', armRetry: true };
  }
  if (open.kind === 'phone' && call.kind === 'phone') return { outcome: 'refuse', blockSeconds: PHONE_REPEAT_BLOCK_S };
  return { outcome: 'refuse' };
}
