/**
 * A large JSON text parsed a slice at a time (contract §2, bounded work): within the shape limits a
 * body of 1 MB may still hold 300 000 objects, and V8's JSON.parse builds them in one go (with the
 * garbage collections that building causes), holding the event loop for a tenth of a second or more.
 * Here every value of at most SLICE_CHARACTERS is given to JSON.parse whole, and the objects and
 * arrays above them are assembled member by member, letting other requests run between slices. The
 * value is the one JSON.parse gives (member order, a repeated key's last value, `__proto__` as data).
 */

import { Pacer } from '../values/pacer';

/** A value of at most this many characters is parsed whole by JSON.parse (well under a millisecond). */
export const SLICE_CHARACTERS = 16 * 1024;

/** A text that is not JSON, with where it stopped being JSON. */
export class JsonSyntaxError extends Error {}

const isWhitespace = (code: number): boolean => code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;

function skipWhitespace(text: string, at: number): number {
  while (at < text.length && isWhitespace(text.charCodeAt(at))) at++;
  return at;
}

/** The index of the quote that ends the string opened at `start`; the text's length when none does. */
function stringEnd(text: string, start: number): number {
  for (let from = start + 1; ; ) {
    const quote = text.indexOf('"', from);
    if (quote === -1) return text.length;
    let backslashes = 0;
    while (quote - backslashes - 1 > start && text.charCodeAt(quote - backslashes - 1) === 0x5c) backslashes++;
    if (backslashes % 2 === 0) return quote;
    from = quote + 1;
  }
}

const unexpected = (text: string, at: number): JsonSyntaxError =>
  at >= text.length ? new JsonSyntaxError('Unexpected end of JSON input') : new JsonSyntaxError(`Unexpected token ${JSON.stringify(text[at])} in JSON at position ${at}`);

/** Where each object or array longer than SLICE_CHARACTERS closes, by where it opens: one pass over the text. */
function largeContainers(text: string, slice: number): Map<number, number> {
  const ends = new Map<number, number>();
  const opens: number[] = [];
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code === 0x22) at = stringEnd(text, at);
    else if (code === 0x7b || code === 0x5b) opens.push(at);
    else if ((code === 0x7d || code === 0x5d) && opens.length > 0) {
      const open = opens.pop()!;
      if (at - open > slice) ends.set(open, at);
    }
  }
  return ends;
}

/** The end (exclusive) of the value of at most `slice` characters that starts at `at`, found without parsing it. */
function smallValueEnd(text: string, at: number, slice: number): number {
  const first = text.charCodeAt(at);
  if (first === 0x22) return stringEnd(text, at) + 1;
  if (first !== 0x7b && first !== 0x5b) {
    let end = at;
    while (end < text.length && !isWhitespace(text.charCodeAt(end)) && !',]}'.includes(text[end])) end++;
    return end;
  }
  let depth = 0;
  for (let end = at; end < text.length && end - at <= slice; end++) {
    const code = text.charCodeAt(end);
    if (code === 0x22) end = stringEnd(text, end);
    else if (code === 0x7b || code === 0x5b) depth++;
    else if ((code === 0x7d || code === 0x5d) && --depth === 0) return end + 1;
  }
  // Never closed (a large container would be in largeContainers): not JSON, and not parsed to learn it.
  throw new JsonSyntaxError('Unexpected end of JSON input');
}

class SlicedParse {
  private readonly ends: Map<number, number>;

  constructor(
    private readonly text: string,
    private readonly slice: number,
    private readonly pacer: Pacer,
  ) {
    this.ends = largeContainers(text, slice);
  }

  /** The value that starts at `at`, and where it ends. */
  async value(at: number): Promise<[unknown, number]> {
    const close = this.ends.get(at);
    if (close !== undefined) return [await this.container(at, close), close + 1];
    const end = smallValueEnd(this.text, at, this.slice);
    return [this.parse(this.text.slice(at, end), at), end];
  }

  /** JSON.parse of a slice that starts at `offset` in the text; its errors say where in the text. */
  private parse(slice: string, offset: number): unknown {
    try {
      return JSON.parse(slice);
    } catch (error) {
      const message = (error as Error).message.replace(/\s*\(line \d+ column \d+\)/, '').replace(/position (\d+)/, (_, position: string) => `position ${offset + Number(position)}`);
      throw new JsonSyntaxError(message);
    }
  }

  /**
   * An object or array larger than a slice: its members in runs of about a slice, each run
   * parsed whole by JSON.parse (which checks its syntax), and its large members assembled the same way.
   */
  private async container(open: number, close: number): Promise<unknown> {
    const text = this.text;
    const isArray = text.charCodeAt(open) === 0x5b;
    const [opening, closing] = isArray ? ['[', ']'] : ['{', '}'];
    const result: unknown[] | Record<string, unknown> = isArray ? [] : {};
    const add = (key: string, value: unknown): void => {
      if (isArray) (result as unknown[]).push(value);
      // Defined, not assigned: "__proto__" is a member as JSON.parse makes it, and a repeated key keeps its first place.
      else Object.defineProperty(result, key, { value, enumerable: true, writable: true, configurable: true });
    };
    let runStart = -1;
    let runEnd = -1;
    const flush = async (): Promise<void> => {
      if (runStart < 0) return;
      const part = this.parse(opening + text.slice(runStart, runEnd) + closing, runStart - 1) as unknown[] | Record<string, unknown>;
      if (Array.isArray(part)) for (const item of part) add('', item);
      else for (const key of Object.keys(part)) add(key, part[key]);
      runStart = -1;
      await this.pacer.pace();
    };
    let at = skipWhitespace(text, open + 1);
    if (text[at] !== closing) {
      for (;;) {
        const memberStart = at;
        if (!isArray) {
          if (text[at] !== '"') throw unexpected(text, at);
          at = skipWhitespace(text, stringEnd(text, at) + 1);
          if (text[at] !== ':') throw unexpected(text, at);
          at = skipWhitespace(text, at + 1);
        }
        const large = this.ends.get(at);
        if (large !== undefined) {
          await flush();
          const key = isArray ? '' : (this.parse(text.slice(memberStart, stringEnd(text, memberStart) + 1), memberStart) as string);
          add(key, await this.container(at, large));
          at = large + 1;
        } else {
          const end = smallValueEnd(text, at, this.slice);
          if (end <= at) throw unexpected(text, at);
          if (runStart < 0) runStart = memberStart;
          runEnd = end;
          at = end;
          if (runEnd - runStart > this.slice) await flush();
        }
        at = skipWhitespace(text, at);
        if (text[at] === ',') {
          at = skipWhitespace(text, at + 1);
          continue;
        }
        if (text[at] === closing) break;
        throw unexpected(text, at);
      }
    }
    await flush();
    if (at !== close) throw unexpected(text, at);
    return result;
  }

}

/**
 * The value of a JSON text, as JSON.parse gives it, parsed a slice at a time (values of at most `slice`
 * characters whole); JsonSyntaxError when it is not JSON.
 */
export async function parseJsonInSlices(text: string, slice = SLICE_CHARACTERS): Promise<unknown> {
  const parse = new SlicedParse(text, slice, new Pacer());
  const start = skipWhitespace(text, 0);
  const [value, end] = await parse.value(start);
  const rest = skipWhitespace(text, end);
  if (rest < text.length) throw new JsonSyntaxError(`Unexpected non-whitespace character after JSON at position ${rest}`);
  return value;
}

/** The end (exclusive) of a number or literal that starts at `at`. */
function scalarEnd(text: string, at: number): number {
  let end = at;
  while (end < text.length && !isWhitespace(text.charCodeAt(end)) && !',]}:'.includes(text[end])) end++;
  return end;
}

/**
 * The first `values` values of a JSON text in document order (objects and arrays count as one each,
 * with what they hold after them), built without reading the rest: what the journal keeps of a body
 * refused unparsed for its shape (contract §14: its first 4 KB, redacted; each value writes a byte or
 * more). A text that ends first (it may be the start of a longer one) gives what it holds, its last
 * value dropped when that is cut; undefined when the text stops being JSON before that.
 */
export function leadingJson(text: string, values: number): unknown {
  type Frame = { container: unknown[] | Record<string, unknown>; isArray: boolean; key: string };
  const frames: Frame[] = [];
  let root: unknown;
  let count = 0;
  let state: 'value' | 'firstValue' | 'key' | 'firstKey' | 'after' = 'value';
  const place = (value: unknown): void => {
    count++;
    const top = frames[frames.length - 1];
    if (!top) root = value;
    else if (top.isArray) (top.container as unknown[]).push(value);
    else Object.defineProperty(top.container, top.key, { value, enumerable: true, writable: true, configurable: true });
  };
  const parsed = (slice: string): { value: unknown } | null => {
    try {
      return { value: JSON.parse(slice) as unknown };
    } catch {
      return null;
    }
  };
  let at = 0;
  while (count < values) {
    at = skipWhitespace(text, at);
    if (at >= text.length) return count > 0 ? root : undefined;
    const character = text[at];
    const top = frames[frames.length - 1];
    if ((state === 'firstKey' && character === '}') || (state === 'firstValue' && character === ']') || (state === 'after' && top && character === (top.isArray ? ']' : '}'))) {
      frames.pop();
      at++;
      state = 'after';
    } else if (state === 'after') {
      if (!top || character !== ',') return undefined;
      at++;
      state = top.isArray ? 'value' : 'key';
    } else if (state === 'key' || state === 'firstKey') {
      if (character !== '"') return undefined;
      const end = stringEnd(text, at) + 1;
      if (end > text.length) return root;
      const key = parsed(text.slice(at, end));
      at = skipWhitespace(text, end);
      if (at >= text.length) return root;
      if (!key || text[at] !== ':') return undefined;
      top.key = key.value as string;
      at++;
      state = 'value';
    } else if (character === '{' || character === '[') {
      const container = character === '[' ? [] : {};
      place(container);
      frames.push({ container, isArray: character === '[', key: '' });
      at++;
      state = character === '[' ? 'firstValue' : 'firstKey';
    } else {
      const end = character === '"' ? stringEnd(text, at) + 1 : scalarEnd(text, at);
      // A value the text cuts is left out.
      if (end >= text.length && (character === '"' ? end > text.length : frames.length > 0)) return root;
      const scalar = end > at ? parsed(text.slice(at, end)) : null;
      if (!scalar) return undefined;
      place(scalar.value);
      at = end;
      state = 'after';
    }
  }
  return root;
}
