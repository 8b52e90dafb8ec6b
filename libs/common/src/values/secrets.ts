import { hash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Keys and tokens are stored as their SHA-256 (hex); the clear value is shown once, at issue. Node's
 * one-shot `hash` (UTF-8 for a string): every authenticated call hashes what it presents, and a Hash
 * object per call costs several times more under load (issue 19).
 */
export function hashSecret(secret: string): string {
  return hash('sha256', secret, 'hex');
}

/** Constant-time comparison of a presented secret with a stored SHA-256 hex digest. */
export function secretMatchesHash(presented: string, storedHashHex: string): boolean {
  const presentedHash = hash('sha256', presented, 'buffer');
  const stored = Buffer.from(storedHashHex, 'hex');
  return stored.length === presentedHash.length && timingSafeEqual(presentedHash, stored);
}

/** A new opaque secret: 32 random bytes, base64url (43 characters). */
export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * A uuid-shaped secret (pending code, autostart token) is hashed in its canonical lowercase text,
 * so that `ABC…` and `abc…` find the same row (a uuid column compared them alike).
 */
export function hashUuidSecret(uuid: string): string {
  return hashSecret(uuid.toLowerCase());
}
