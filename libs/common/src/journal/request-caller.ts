import type { IncomingMessage } from 'node:http';
import type { JournalCaller } from './journal-entry';

/** A property of the request rather than a WeakMap entry (see the journal's recording). */
const CALLER = Symbol('journal caller');
type Identified = IncomingMessage & { [CALLER]?: JournalCaller };

/**
 * The caller of a request as the journal records it (contract §14: what the request identified,
 * even when it was then refused). The strategy that identifies a caller says so here, at the moment
 * it knows (a TPP's certificate read before its token is refused); the first identification stands.
 */
export const RequestCaller = {
  identify(request: IncomingMessage, caller: JournalCaller): void {
    (request as Identified)[CALLER] ??= caller;
  },

  of(request: IncomingMessage): JournalCaller {
    return (request as Identified)[CALLER] ?? { kind: 'anonymous' };
  },
};
