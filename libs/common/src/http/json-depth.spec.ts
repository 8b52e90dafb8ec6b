import { nestsDeeperThan } from './json-depth';

const nested = (depth: number): unknown => JSON.parse('['.repeat(depth) + ']'.repeat(depth));

describe(nestsDeeperThan.name, () => {
  it('counts each object or array as one level', () => {
    expect(nestsDeeperThan({ a: [{ b: 1 }] }, 3)).toBe(false);
    expect(nestsDeeperThan({ a: [{ b: {} }] }, 3)).toBe(true);
    expect(nestsDeeperThan(nested(32), 32)).toBe(false);
    expect(nestsDeeperThan(nested(33), 32)).toBe(true);
  });

  it('takes scalars and absent bodies as depth 0', () => {
    for (const value of [undefined, null, 7, 'text', true]) expect(nestsDeeperThan(value, 0)).toBe(false);
  });

  it('measures 200 000 levels without exhausting the stack', () => {
    expect(nestsDeeperThan(nested(200_000), 32)).toBe(true);
  });
});
