import { CommonCreateClockAndJobLeases1763800000000 } from './1763800000000-CommonCreateClockAndJobLeases';

/** Every migration, in order. Imported as classes (no globs) so that the build emits them as files. */
export const MIGRATIONS = [CommonCreateClockAndJobLeases1763800000000];
