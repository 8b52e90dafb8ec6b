import { OAuthError } from '@app/common';

export { OAuthError } from '@app/common';
export type { OAuthErrorCode } from '@app/common';

export const invalidGrant = (description: string) => new OAuthError('invalid_grant', description);
export const invalidRequest = (description: string) => new OAuthError('invalid_request', description);
export const kycRequired = () =>
  new OAuthError('kyc_required', 'The user has not answered the know-your-customer questions; they must do so in the bank\'s own app (bank §7.1 case 6).', 403);
