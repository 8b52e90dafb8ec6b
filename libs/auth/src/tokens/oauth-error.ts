import { OAuthError, RequestHints, type RequestWithSandbox, SandboxContext, sandboxPrefixOf } from '@app/common';

export { OAuthError } from '@app/common';
export type { OAuthErrorCode } from '@app/common';

export const invalidGrant = (description: string) => new OAuthError('invalid_grant', description);
export const invalidRequest = (description: string) => new OAuthError('invalid_request', description);
export const kycRequired = () =>
  new OAuthError('kyc_required', 'The user has not answered the know-your-customer questions; they must do so in the bank\'s own app (bank §7.1 case 6).', 403);

/**
 * Bank §7.1 case 6 for a sandbox user, with the hint naming the admin call of this sandbox that
 * answers KYC for them (contract §14): every token endpoint refuses through here.
 */
export function refusedWithoutKyc(user: { personalNumber: string; name: string }): OAuthError {
  const sandboxPrefix = sandboxPrefixOf((SandboxContext.request ?? {}) as RequestWithSandbox) ?? '';
  RequestHints.raise('KYC_REQUIRED', { personalNumber: user.personalNumber, name: user.name, sandboxPrefix });
  return kycRequired();
}
