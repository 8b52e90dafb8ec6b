import fc from 'fast-check';
import { type JsonShape, type JsonShapeLimits, leadingValues, measureJson, nestsDeeperThan, placeOf, scanJsonText } from './json-depth';

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

/** The rule of contract §2 written the obvious way (recursive, every breach in document order): what the walkers must agree with. */
function reference(value: unknown, limits: JsonShapeLimits): { tooDeep: boolean; breaches: JsonShape['breaches'] } {
  const breaches: JsonShape['breaches'] = [];
  let tooDeep = false;
  const visit = (node: unknown, path: Array<string | number>, level: number): void => {
    if (typeof node !== 'object' || node === null || tooDeep) return;
    if (level > limits.depth) {
      tooDeep = true;
      return;
    }
    const entries: Array<[string | number, unknown]> = Array.isArray(node) ? node.map((item, i) => [i, item]) : Object.entries(node);
    const kind = Array.isArray(node) ? 'elements' : 'members';
    if (entries.length > (Array.isArray(node) ? limits.elements : limits.members)) breaches.push({ path, kind, size: entries.length });
    for (const [key, child] of entries) visit(child, [...path, key], level + 1);
  };
  visit(value, [], 1);
  return { tooDeep, breaches };
}

/** JSON values with small limits in play: wide and deep enough to break them, keys that need escaping in JSON text. */
const LIMITS: JsonShapeLimits = { depth: 4, members: 3, elements: 4 };
const key = fc.oneof(fc.string({ maxLength: 4 }), fc.constantFrom('"', '\\', 'a"b', '\\"', '{', '[', ',', ':', '\u00e5', '\ud83d\ude00', '__proto__'));
const json = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null), fc.string({ maxLength: 6 }), key),
    fc.array(tie('value'), { maxLength: 7 }),
    fc.dictionary(key, tie('value'), { maxKeys: 6 }),
  ),
})).value;

describe('the shape limits of bounded work (contract §2): one walk of the parsed body, one scan of its text', () => {
  it('measureJson finds what the recursive rule finds: too deep, or every wide object and array in document order with its place and size', () => {
    fc.assert(
      fc.property(json, (value) => {
        const expected = reference(value, LIMITS);
        const shape = measureJson(value, LIMITS, Infinity);
        expect(shape.tooDeep).toBe(expected.tooDeep);
        if (!expected.tooDeep) {
          expect(shape.breaches).toEqual(expected.breaches);
          expect(shape.breachCount).toBe(expected.breaches.length);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('scanJsonText reads the same from the JSON text, compact or indented, before any parse', () => {
    fc.assert(
      fc.property(json, fc.constantFrom(undefined, 2, '\t'), (value, indent) => {
        const text = JSON.stringify(value, null, indent);
        fc.pre(text !== undefined);
        // A key spelled twice in a text is one member once parsed: such texts are not compared.
        const parsed: unknown = JSON.parse(text);
        fc.pre(JSON.stringify(parsed, null, indent) === text);
        expect(scanJsonText(Buffer.from(text), LIMITS, Infinity)).toEqual(measureJson(parsed, LIMITS, Infinity));
      }),
      { numRuns: 500 },
    );
  });

  it('keeps the first breaches with their places and counts them all', () => {
    const body = { users: Array.from({ length: 15 }, () => ({ a: 1, b: 2, c: 3, d: 4 })) };
    for (const shape of [measureJson(body, LIMITS, 10), scanJsonText(Buffer.from(JSON.stringify(body)), LIMITS, 10)]) {
      expect(shape.breachCount).toBe(16);
      expect(shape.breaches.map((breach) => placeOf(breach.path, 'the body'))).toEqual(['users', ...Array.from({ length: 9 }, (_, i) => `users.${i}`)]);
      expect(shape.breaches[0]).toEqual({ path: ['users'], kind: 'elements', size: 15 });
    }
  });

  it('stops at the first level past the depth limit, in the text too', () => {
    const text = '['.repeat(200_000) + ']'.repeat(200_000);
    expect(scanJsonText(Buffer.from(text)).tooDeep).toBe(true);
    expect(scanJsonText(Buffer.from('['.repeat(32) + ']'.repeat(32))).tooDeep).toBe(false);
    expect(scanJsonText(Buffer.from('{"a":' + '['.repeat(32) + ']'.repeat(32) + '}')).tooDeep).toBe(true);
  });

  it('reads strings whole: brackets, commas and escaped quotes inside them count for nothing', () => {
    const value = { 'a,b': '[{,,,}]', '\\': ['\\"', '"', ',,,,,'], 'q"': { x: '\\\\' } };
    expect(scanJsonText(Buffer.from(JSON.stringify(value)), { depth: 2, members: 3, elements: 3 }, 10)).toEqual({ tooDeep: false, breaches: [], breachCount: 0 });
  });

  it('names a place in dot notation, quoting keys that are not plain, and the top as the body', () => {
    expect(placeOf([], 'the body')).toBe('the body');
    expect(placeOf(['fixture', 'users'], 'the body')).toBe('fixture.users');
    expect(placeOf(['users', 1, 'accounts'], 'the body')).toBe('users.1.accounts');
    expect(placeOf(['a.b', '', 'x'.repeat(100)], 'the body')).toBe(`"a.b".""."${'x'.repeat(64)}…"`);
  });
});

describe(leadingValues.name, () => {
  it('is a copy whose JSON text begins as the whole value\'s for as many characters as values it holds, or the value itself when small', () => {
    fc.assert(
      fc.property(json, fc.integer({ min: 1, max: 12 }), (value, nodes) => {
        const kept = leadingValues(value, nodes);
        const whole = JSON.stringify(value);
        const start = JSON.stringify(kept);
        if (kept === value) return;
        let common = 0;
        while (common < start.length && start[common] === whole[common]) common++;
        expect(common).toBeGreaterThanOrEqual(nodes);
      }),
      { numRuns: 500 },
    );
    const small = { a: [1, 2] };
    expect(leadingValues(small, 4)).toBe(small);
  });

  it('keeps a "__proto__" key as data', () => {
    const value = JSON.parse('{"__proto__": {"x": 1}, "b": 2}') as unknown;
    expect(JSON.stringify(leadingValues(value, 2))).toBe('{"__proto__":{}}');
  });
});
