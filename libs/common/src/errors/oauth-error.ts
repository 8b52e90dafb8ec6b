/**
 * RFC 6749 §5.2 error codes the token endpoints answer (contract §2 table); `temporarily_unavailable`
 * and `server_error` are RFC 6749 §4.1.2.1's, for planned downtime and the unexpected.
 */
export type OAuthErrorCode =
  | 'invalid_client'
  | 'invalid_request'
  | 'unsupported_grant_type'
  | 'invalid_grant'
  | 'authorization_pending'
  | 'expired_token'
  | 'kyc_required'
  | 'temporarily_unavailable'
  | 'server_error';

/**
 * A failure only a token endpoint has (a grant refused, a grant type unknown). Rendered
 * `{ error, error_description }` by the one exception filter, which chooses that shape by path.
 */
export class OAuthError extends Error {
  constructor(
    readonly error: OAuthErrorCode,
    readonly description: string,
    readonly status = 400,
  ) {
    super(description);
    this.name = 'OAuthError';
  }
}
