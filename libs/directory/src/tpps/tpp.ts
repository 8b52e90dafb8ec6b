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

export function tppIdentifier(identity: TppIdentity): string {
  return identity.organizationId ?? `sha256:${identity.fingerprint}`;
}
