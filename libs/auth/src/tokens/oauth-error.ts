/** RFC 6749 §5.2 error codes the token endpoints answer (contract §2 table). */
export type OAuthErrorCode =
  | 'invalid_client'
  | 'invalid_request'
  | 'unsupported_grant_type'
  | 'invalid_grant'
  | 'authorization_pending'
  | 'expired_token'
  | 'kyc_required'
  | 'server_error';

/** A failure of a token endpoint, rendered `{ error, error_description }` by OAuthErrorFilter. */
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

export const invalidGrant = (description: string) => new OAuthError('invalid_grant', description);
export const invalidRequest = (description: string) => new OAuthError('invalid_request', description);
export const kycRequired = () =>
  new OAuthError('kyc_required', 'The user has not answered the know-your-customer questions; they must do so in the bank\'s own app (bank §7.1 case 6).', 403);
