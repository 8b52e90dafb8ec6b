import fc from 'fast-check';
import { withoutNullFields } from './text-input';

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
