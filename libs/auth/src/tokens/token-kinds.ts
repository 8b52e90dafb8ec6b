import type { Scope } from '../scopes';

/** The grant an access token came from; routes state which they accept (contract §5). */
export const TOKEN_KINDS = ['authenticate', 'authorize', 'non_authenticated'] as const;
export type TokenKind = (typeof TOKEN_KINDS)[number];

/** Bank §4.1, §5.5, §8; contract §5. */
export const ACCESS_TOKEN_LIFETIME_S: Record<Exclude<TokenKind, 'non_authenticated'>, number> = {
  authenticate: 1800,
  authorize: 300,
};
export const REFRESHED_TOKEN_LIFETIME_S = 300;
/** A refreshed access token is for AIS only (contract §5). */
export const REFRESHED_SCOPES: readonly Scope[] = ['AIS'];
export const REFRESH_TOKEN_LIFETIME_S = 15_552_000; // 180 days
export const REFRESH_USES_PER_DAY = 4;
export const CONSENT_LIFETIME_S = 15_552_000; // 180 days (bank §5.3)
/** Contract §2: a COMPLETE pending code must be exchanged within 5 minutes. */
export const PENDING_CODE_EXCHANGE_WINDOW_S = 300;
