import type { Psd2Role } from '@app/directory';
import { RoleNotInCertificate } from './auth.errors';

/** PSD2 scopes and the certificate role each needs (bank §1). */
export const SCOPES = ['AIS', 'PIS'] as const;
export type Scope = (typeof SCOPES)[number];

export const ROLE_OF_SCOPE: Record<Scope, Psd2Role> = { AIS: 'PSP_AI', PIS: 'PSP_PI' };

/** The scopes a certificate's roles allow. */
export function scopesOfRoles(roles: readonly Psd2Role[]): Scope[] {
  return SCOPES.filter((scope) => roles.includes(ROLE_OF_SCOPE[scope]));
}

/** "AIS,PIS" → ['AIS', 'PIS'] (each once, in the canonical order); null when malformed. */
export function parseScopes(text: string): Scope[] | null {
  const parts = text.split(',').map((part) => part.trim());
  if (parts.length === 0 || parts.some((part) => !(SCOPES as readonly string[]).includes(part))) return null;
  return SCOPES.filter((scope) => parts.includes(scope));
}

/** Contract §5: the token response's scope is space-separated, e.g. "AIS PIS". */
export const scopeText = (scopes: readonly Scope[]): string => scopes.join(' ');

/** Bank §1: only roles present in the certificate may be used; each scope needs its role (403 ROLE_NOT_IN_CERTIFICATE). */
export function requireRolesFor(scopes: readonly Scope[], roles: readonly Psd2Role[]): void {
  const uncovered = scopes.find((scope) => !roles.includes(ROLE_OF_SCOPE[scope]));
  if (uncovered) throw new RoleNotInCertificate(uncovered, ROLE_OF_SCOPE[uncovered]);
}
