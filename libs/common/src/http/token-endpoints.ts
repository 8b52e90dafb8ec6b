/** The two OAuth token endpoints (contract §2). */
export type TokenEndpoint = 'psd2' | 'enterprise';

/** Paths as Express routes them: case-insensitive, a trailing slash allowed. */
const TOKEN_PATHS: ReadonlyArray<readonly [RegExp, TokenEndpoint]> = [
  [/^\/psd2\/auth\/1\.0\/token\/?$/i, 'psd2'],
  [/^\/api\/auth\/1\.0\/token\/?$/i, 'enterprise'],
];

/** A sandbox's prefix (contract §13) may stand in front of every path. */
const SANDBOX_PREFIX = /^\/sandboxes\/[^/]+(?=\/)/i;

/**
 * Which token endpoint a request path (as sent, without the query) names, if any. Every answer on
 * these paths is RFC 6749 JSON, including errors raised before routing (contract §2), so the choice
 * is made on the path alone.
 */
export function tokenEndpointOf(path: string): TokenEndpoint | null {
  const local = path.replace(SANDBOX_PREFIX, '');
  return TOKEN_PATHS.find(([pattern]) => pattern.test(local))?.[1] ?? null;
}
