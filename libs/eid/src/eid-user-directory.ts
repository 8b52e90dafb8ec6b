import type { EidBehaviour } from './eid-catalogue';

/** A sandbox user as the simulator page shows them. */
export interface EidUserCard {
  personalNumber: string;
  name: string;
  behaviour: EidBehaviour;
}

/**
 * What the identity service needs to know about people: whether a personal number is a sandbox user
 * and how that user's app behaves. Provided by libs/directory (which depends on this lib, not the
 * other way round).
 */
export abstract class EidUserDirectory {
  /** The user's eid behaviour, or null when no sandbox user has this personal number. */
  abstract behaviourOf(personalNumber: string): Promise<EidBehaviour | null>;

  /** The user, or null when no sandbox user has this personal number. */
  abstract describe(personalNumber: string): Promise<EidUserCard | null>;

  /** The first `limit` users in personal-number order: the simulator page's user picker. */
  abstract list(limit: number): Promise<EidUserCard[]>;
}
