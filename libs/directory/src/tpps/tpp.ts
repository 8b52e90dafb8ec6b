/** What never changes about a TPP once registered: safe to keep in process memory. */
export interface TppRef {
  id: string;
  /** The organizationIdentifier, or `sha256:<fingerprint>` for a certificate without one. */
  identifier: string;
}

export interface Tpp {
  id: string;
  /** The organizationIdentifier, or `sha256:<fingerprint>` for a certificate without one. */
  identifier: string;
  nonAuthenticatedTokenLifetimeS: number;
}

export interface TppSettings {
  nonAuthenticatedTokenLifetimeS: number;
}

/** What identifies a TPP in its certificate (contract §3). */
export interface TppIdentity {
  organizationId: string | null;
  fingerprint: string;
}

/** The identifier of a TPP whose certificate has no organization id begins with it (contract §3). */
export const FINGERPRINT_IDENTIFIER_PREFIX = 'sha256:';

export function tppIdentifier(identity: TppIdentity): string {
  return identity.organizationId ?? `${FINGERPRINT_IDENTIFIER_PREFIX}${identity.fingerprint}`;
}

/**
 * Why `organizationId` can name no TPP, or null: the `sha256:` form names the TPP of a certificate
 * without an organization id, and no certificate, request or fixture may borrow it (contract §16).
 */
export function reservedOrganizationIdProblem(organizationId: string): string | null {
  return organizationId.startsWith(FINGERPRINT_IDENTIFIER_PREFIX)
    ? `organization_id must not begin with ${FINGERPRINT_IDENTIFIER_PREFIX}: that form names the TPP of a certificate without an organization id (contract §3, §16)`
    : null;
}
