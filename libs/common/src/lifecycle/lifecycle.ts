import { DomainError, InvalidState } from '../errors/domain-error';

/** A status table: which moves are allowed, the states a move may start from, and the refusal. */
export interface Lifecycle<S extends string> {
  readonly statuses: readonly S[];
  canMove(from: S, to: S): boolean;
  /** The states from which a move to `to` is allowed, in table order (for conditional UPDATEs). */
  before(to: S): S[];
  /** Throws 409 INVALID_STATE (or the caller's own INVALID_STATE error) unless `from → to` is allowed. */
  assertMove(from: S, to: S, refusal?: () => DomainError): void;
}

/**
 * The one way to write a lifecycle: the statuses and, for each, the statuses it may move to. A
 * target outside the list is a programming error and fails at import, not on the first request.
 */
export function defineLifecycle<const S extends string>(statuses: readonly S[], next: Readonly<Record<S, readonly S[]>>): Lifecycle<S> {
  for (const from of statuses) {
    for (const to of next[from]) {
      if (!statuses.includes(to)) throw new Error(`Lifecycle: ${from} moves to ${to}, which is not one of its statuses`);
    }
  }
  const canMove = (from: S, to: S): boolean => next[from].includes(to);
  return {
    statuses,
    canMove,
    before: (to) => statuses.filter((from) => canMove(from, to)),
    assertMove: (from, to, refusal) => {
      if (!canMove(from, to)) throw refusal?.() ?? new InvalidState(`The status is ${from}; it cannot become ${to}.`);
    },
  };
}
