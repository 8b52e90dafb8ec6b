import fc from 'fast-check';
import { leadingValues } from './json-depth';
import { JsonSyntaxError, leadingJson, parseJsonInSlices } from './json-slices';

/** Keys JSON texts must escape, that look like structure, or that JavaScript treats apart. */
const key = fc.oneof(fc.string({ maxLength: 4 }), fc.constantFrom('"', '\\', '{', ']', ',', ':', '__proto__', '0', '10', '\u00e5', '\ud83d\ude00'));
const json = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null), fc.string({ maxLength: 8 }), key),
    fc.array(tie('value'), { maxLength: 8 }),
    fc.dictionary(key, tie('value'), { maxKeys: 6 }),
  ),
})).value;

/** What JSON.parse says of a text: its value as JSON (member order included), or that it is not JSON. */
function wholeParse(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text));
  } catch {
    return 'not JSON';
  }
}

async function slicedParse(text: string, slice: number): Promise<string> {
  try {
    return JSON.stringify(await parseJsonInSlices(text, slice));
  } catch (error) {
    if (!(error instanceof JsonSyntaxError)) throw error;
    return 'not JSON';
  }
}

describe('a large JSON text parsed a slice at a time (contract §2, bounded work)', () => {
  it('gives what JSON.parse gives, for any slice size, compact or indented', async () => {
    await fc.assert(
      fc.asyncProperty(json, fc.integer({ min: 0, max: 40 }), fc.constantFrom(undefined, 1, '\t'), async (value, slice, indent) => {
        const text = JSON.stringify(value, null, indent);
        expect(await slicedParse(text, slice)).toBe(wholeParse(text));
      }),
      { numRuns: 1000 },
    );
  });

  it('refuses exactly what JSON.parse refuses: a character dropped, added or changed anywhere', async () => {
    const mutation = fc.tuple(fc.nat(), fc.constantFrom('', ',', ':', '"', '{', '}', '[', ']', 'x', ' ', '\\', '1'), fc.boolean());
    await fc.assert(
      fc.asyncProperty(json, fc.integer({ min: 0, max: 40 }), mutation, async (value, slice, [position, character, replace]) => {
        const text = JSON.stringify(value);
        const at = position % (text.length + 1);
        const mutated = text.slice(0, at) + character + text.slice(replace ? at + 1 : at);
        expect(await slicedParse(mutated, slice)).toBe(wholeParse(mutated));
      }),
      { numRuns: 2000 },
    );
  });

  it('keeps "__proto__" as a member and a repeated key\'s last value at its first place, as JSON.parse does', async () => {
    const text = '{"a":1,"__proto__":{"x":[1,2,3]},"b":[4,5,6,7,8],"a":[9,10,11,12]}';
    const parsed = (await parseJsonInSlices(text, 4)) as Record<string, unknown>;
    expect(Object.keys(parsed)).toEqual(['a', '__proto__', 'b']);
    expect(JSON.stringify(parsed)).toBe(JSON.stringify(JSON.parse(text)));
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
  });

  it('says where a text stops being JSON, from its start', async () => {
    await expect(parseJsonInSlices(`[${'1,'.repeat(50)}}]`, 8)).rejects.toThrow(/position \d+|Unexpected/);
    await expect(parseJsonInSlices(`[${'{},'.repeat(50)}`, 8)).rejects.toThrow(JsonSyntaxError);
  });

  it('lets other work run while it parses a text of 250 000 objects', async () => {
    const text = `{${Array.from({ length: 25 }, (_, i) => `"f${i}":[${Array(10_000).fill('{}').join(',')}]`).join(',')}}`;
    let done = false;
    let turns = 0;
    const turn = (): void => {
      turns++;
      if (!done) setImmediate(turn);
    };
    setImmediate(turn);
    const parsed = (await parseJsonInSlices(text).finally(() => (done = true))) as Record<string, unknown[]>;
    expect(Object.keys(parsed)).toHaveLength(25);
    expect(parsed.f24).toHaveLength(10_000);
    expect(turns).toBeGreaterThan(1);
  });
});

describe('leadingJson: the first values of a JSON text, the rest unread (contract §14, a body refused unparsed)', () => {
  it('is leadingValues of JSON.parse for any text and count, and undefined for what is not JSON before the count', () => {
    fc.assert(
      fc.property(json, fc.integer({ min: 1, max: 30 }), fc.constantFrom(undefined, 2), (value, count, indent) => {
        const text = JSON.stringify(value, null, indent);
        expect(JSON.stringify(leadingJson(text, count))).toBe(JSON.stringify(leadingValues(JSON.parse(text), count)));
      }),
      { numRuns: 1000 },
    );
    expect(leadingJson('{"a" 1}', 10)).toBeUndefined();
    expect(leadingJson('[1,,2]', 10)).toBeUndefined();
  });

  it('gives what the start of a longer text holds, a value it cuts left out', () => {
    expect(leadingJson('{"a":[1,2', 3)).toEqual({ a: [1] });
    expect(leadingJson('{"a":[1,"tw', 10)).toEqual({ a: [1] });
    expect(leadingJson('{"a":[1,2],"b', 10)).toEqual({ a: [1, 2] });
    expect(leadingJson('{"a":[1,23', 10)).toEqual({ a: [1] });
    expect(leadingJson('', 10)).toBeUndefined();
  });

  it('reads a text nested 100 000 levels deep only as far as it needs', () => {
    const deep = `{"token":"x","a":${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}}`;
    let node = leadingJson(deep, 40) as Record<string, unknown>;
    expect(node.token).toBe('x');
    let levels = 0;
    while (typeof node.a === 'object') {
      node = node.a as Record<string, unknown>;
      levels++;
    }
    // 40 values: the top object, "x", and 38 objects below it.
    expect(levels).toBe(38);
  });
});
