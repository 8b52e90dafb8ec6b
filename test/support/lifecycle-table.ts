import { DomainError, type Lifecycle } from '@app/common';

/** A move as the documents write it: `'FROM → TO'`. */
export type Move<S extends string> = `${S} → ${S}`;

/**
 * The specs of one lifecycle table against the moves the documents name, written out in the spec
 * (not read from the table): each named move is allowed, every other pair (staying put included) is
 * refused with 409 INVALID_STATE, and `before` of each state lists exactly the named sources.
 */
export function describeLifecycle<S extends string>(name: string, section: string, lifecycle: Lifecycle<S>, moves: readonly Move<S>[]): void {
  const named = new Set<string>(moves);
  const pairs = lifecycle.statuses.flatMap((from) => lifecycle.statuses.map((to) => [from, to] as const));
  const allowed = pairs.filter(([from, to]) => named.has(`${from} → ${to}`));
  const refused = pairs.filter(([from, to]) => !named.has(`${from} → ${to}`));

  describe(`${name} lifecycle (${section})`, () => {
    it(`names only its own statuses (${section})`, () => {
      const unknown = moves.flatMap((move) => move.split(' → ')).filter((s) => !(lifecycle.statuses as readonly string[]).includes(s));
      expect(unknown).toEqual([]);
      expect(allowed).toHaveLength(moves.length);
    });

    it.each(allowed)(`allows %s → %s (${section})`, (from, to) => {
      expect(lifecycle.canMove(from, to)).toBe(true);
      expect(() => lifecycle.assertMove(from, to)).not.toThrow();
    });

    it.each(refused)(`refuses %s → %s with 409 INVALID_STATE (${section})`, (from, to) => {
      expect(lifecycle.canMove(from, to)).toBe(false);
      let thrown: unknown;
      try {
        lifecycle.assertMove(from, to);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(DomainError);
      expect(thrown).toMatchObject({ code: 'INVALID_STATE', kind: 'invalid_state' });
    });

    it.each(lifecycle.statuses.map((to) => [to, lifecycle.statuses.filter((from) => named.has(`${from} → ${to}`))] as const))(
      `before(%s) is %j, the states a conditional UPDATE may move from (${section})`,
      (to, sources) => {
        expect(lifecycle.before(to)).toEqual(sources);
      },
    );
  });
}
