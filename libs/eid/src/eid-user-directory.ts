import type { EidBehaviour } from './eid-catalogue';

/**
 * What the identity service needs to know about people: whether a personal number is a sandbox user
 * and how that user's app behaves. Provided by libs/directory (which depends on this lib, not the
 * other way round).
 */
export abstract class EidUserDirectory {
  /** The user's eid behaviour, or null when no sandbox user has this personal number. */
  abstract behaviourOf(personalNumber: string): Promise<EidBehaviour | null>;
}
