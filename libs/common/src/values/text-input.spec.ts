import fc from 'fast-check';
import { findTextInputProblem, inspectTextInput, withoutNullFields } from './text-input';

/** What contract §2 says, written the plain way: every null-valued property dropped, at every depth. */
function dropNullProperties(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(dropNullProperties);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, field]) => field !== null)
      .map(([key, field]) => [key, dropNullProperties(field)]),
  );
}

const hasNullAnywhere = (json: string) => /\bnull\b/.test(json);

describe('withoutNullFields: null in a request body means absent (contract §2)', () => {
  it('drops every null-valued property at every depth and keeps null array elements', () => {
    const body: unknown = JSON.parse('{"a":null,"b":{"c":null,"d":1},"e":[null,{"f":null,"g":"x"}],"h":"null"}');
    expect(withoutNullFields(body)).toEqual({ b: { d: 1 }, e: [null, { g: 'x' }], h: 'null' });
  });

  it('keeps an own __proto__ key a key of the copy, never its prototype', () => {
    const copy = withoutNullFields(JSON.parse('{"__proto__":{"polluted":true},"x":null}')) as Record<string, unknown>;
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(copy)).toEqual(['__proto__']);
    expect((copy as { polluted?: boolean }).polluted).toBeUndefined();
  });

  it('for any parsed JSON: the same value as dropping the null properties; the input itself when it holds no null, and untouched', () => {
    fc.assert(
      fc.property(fc.json(), (json) => {
        const input: unknown = JSON.parse(json);
        const result = withoutNullFields(input);
        expect(result).toEqual(dropNullProperties(JSON.parse(json)));
        expect(input).toEqual(JSON.parse(json));
        if (!hasNullAnywhere(json)) expect(result).toBe(input);
      }),
    );
  });
});

describe('inspectTextInput: the text rules of a body walked in slices (contract §2, bounded work)', () => {
  const control = fc.constantFrom('\u0000', '\u001f', '\u007f', '\ud800', '\udc00');
  const text = fc.oneof(fc.string({ maxLength: 5 }), fc.tuple(fc.string({ maxLength: 3 }), control, fc.string({ maxLength: 3 })).map((parts) => parts.join('')));
  const key = fc.oneof(text, fc.constantFrom('__proto__', 'constructor', 'prototype', 'a.b', ''));
  const body = fc.letrec<{ value: unknown }>((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.oneof(text, fc.integer(), fc.boolean(), fc.constant(null)),
      fc.array(tie('value'), { maxLength: 5 }),
      fc.array(fc.tuple(key, tie('value')), { maxLength: 5 }).map((entries) =>
        entries.reduce<Record<string, unknown>>((o, [k, v]) => Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true }), {}),
      ),
    ),
  })).value;
  /** A pacer that yields at every look, so the walk is cut as often as it can be. */
  const always = { due: true, pace: () => new Promise<void>((resolve) => setImmediate(resolve)) };

  it('finds the first problem findTextInputProblem finds, and a null wherever withoutNullFields would drop or keep one', async () => {
    await fc.assert(
      fc.asyncProperty(body, fc.constantFrom('', 'root'), fc.boolean(), async (value, root, prototypeKeys) => {
        const { problem, holdsNull } = await inspectTextInput(value, root, { prototypeKeys }, always);
        expect(problem).toEqual(findTextInputProblem(value, root, { prototypeKeys }));
        const containsNull = (node: unknown): boolean => node === null || (typeof node === 'object' && Object.values(node).some(containsNull));
        if (!problem) expect(holdsNull).toBe(containsNull(value));
      }),
      { numRuns: 1000 },
    );
  });

  it('walks 300 000 values without recursion, looking at the clock every 1 024', async () => {
    let looks = 0;
    const counting = { get due() { looks++; return false; }, pace: () => Promise.resolve() };
    const value = { f: Array.from({ length: 30 }, () => Array.from({ length: 10_000 }, () => ({}))) };
    expect(await inspectTextInput(value, '', {}, counting)).toEqual({ problem: null, holdsNull: false });
    expect(looks).toBeGreaterThanOrEqual(290);
  });
});
