import { DomainError, InvalidState } from '../errors/domain-error';
import { defineLifecycle } from './lifecycle';

const STATES = ['OPEN', 'DONE', 'GONE'] as const;

describe('defineLifecycle (issue 14: one lifecycle helper)', () => {
  const lifecycle = defineLifecycle(STATES, { OPEN: ['DONE', 'GONE'], DONE: ['GONE'], GONE: [] });

  it('refuses a move outside the table with 409 INVALID_STATE naming both states (contract §2: wrong state is 409)', () => {
    expect(() => lifecycle.assertMove('GONE', 'OPEN')).toThrow(InvalidState);
    expect(() => lifecycle.assertMove('GONE', 'OPEN')).toThrow('The status is GONE; it cannot become OPEN.');
    expect(() => lifecycle.assertMove('OPEN', 'GONE')).not.toThrow();
  });

  it("throws the caller's own refusal, so each resource keeps its message (contract §2)", () => {
    class Mine extends DomainError {
      constructor() {
        super('INVALID_STATE', 'mine');
      }
    }
    expect(() => lifecycle.assertMove('DONE', 'OPEN', () => new Mine())).toThrow(Mine);
    expect(() => lifecycle.assertMove('DONE', 'GONE', () => new Mine())).not.toThrow();
  });

  it('before(to) lists the states a move to `to` may start from, in table order (conditional UPDATEs)', () => {
    expect(lifecycle.before('GONE')).toEqual(['OPEN', 'DONE']);
    expect(lifecycle.before('OPEN')).toEqual([]);
  });

  it('fails at definition when a move names a status outside the list (fail loudly)', () => {
    expect(() => defineLifecycle(['A', 'B'] as const, { A: ['C' as 'B'], B: [] })).toThrow('A moves to C');
  });
});
