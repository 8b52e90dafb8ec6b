/**
 * The shape limits of a parsed request body (contract §2, bounded work). No body of the bank's or
 * the sandbox's needs more; a body past them is refused before anything else reads it, so no later
 * step (the recursive transformers behind the validation pipe, the journal's redaction) ever walks
 * more than these allow.
 */
export const MAX_BODY_DEPTH = 32;
/** Members of one JSON object. */
export const MAX_OBJECT_MEMBERS = 1000;
/** Elements of one JSON array. */
export const MAX_ARRAY_ELEMENTS = 10_000;

export interface JsonShapeLimits {
  depth: number;
  members: number;
  elements: number;
}

export const BODY_SHAPE_LIMITS: JsonShapeLimits = { depth: MAX_BODY_DEPTH, members: MAX_OBJECT_MEMBERS, elements: MAX_ARRAY_ELEMENTS };

/** An object with more members, or an array with more elements, than the limits allow. */
export interface WidthBreach {
  /** Keys and indexes from the top of the value; empty for the value itself. */
  path: Array<string | number>;
  kind: 'members' | 'elements';
  size: number;
}

export interface JsonShape {
  /** Nested deeper than the depth limit: the walk stopped there, and no breach is listed (the depth is the news). */
  tooDeep: boolean;
  /** The first `keep` width breaches, in document order. */
  breaches: WidthBreach[];
  /** How many width breaches there are in all. */
  breachCount: number;
}

/** One object or array being walked, and where in it the walk is. */
interface Frame {
  node: Record<string, unknown> | unknown[];
  /** The object's keys; null for an array. */
  keys: string[] | null;
  size: number;
  next: number;
  /** Its key or index in its parent. */
  segment: string | number;
}

/**
 * The shape of a parsed JSON value against the limits, in one walk without recursion that visits
 * each value once (linear in the body; any depth is safe to measure): whether it nests deeper than
 * the depth limit (the top object or array is level 1), and its objects and arrays wider than the
 * limits, the first `keep` of them with their places.
 */
export function measureJson(value: unknown, limits: JsonShapeLimits = BODY_SHAPE_LIMITS, keep = 10): JsonShape {
  const shape: JsonShape = { tooDeep: false, breaches: [], breachCount: 0 };
  if (typeof value !== 'object' || value === null) return shape;
  const frames: Frame[] = [];
  const enter = (node: object, segment: string | number): boolean => {
    if (frames.length + 1 > limits.depth) return false;
    const isArray = Array.isArray(node);
    const keys = isArray ? null : Object.keys(node);
    const size = keys === null ? (node as unknown[]).length : keys.length;
    if (size > (isArray ? limits.elements : limits.members)) {
      shape.breachCount++;
      if (shape.breaches.length < keep) {
        shape.breaches.push({ path: [...frames.slice(1).map((frame) => frame.segment), ...(frames.length > 0 ? [segment] : [])], kind: isArray ? 'elements' : 'members', size });
      }
    }
    frames.push({ node: node as Frame['node'], keys, size, next: 0, segment });
    return true;
  };
  if (!enter(value, '')) return { tooDeep: true, breaches: [], breachCount: 0 };
  while (frames.length > 0) {
    const top = frames[frames.length - 1];
    if (top.next >= top.size) {
      frames.pop();
      continue;
    }
    const index = top.next++;
    const child = top.keys === null ? (top.node as unknown[])[index] : (top.node as Record<string, unknown>)[top.keys[index]];
    if (typeof child === 'object' && child !== null && !enter(child, top.keys === null ? index : top.keys[index])) return { tooDeep: true, breaches: [], breachCount: 0 };
  }
  return shape;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

/** The index of the quote that ends the string opened at `start`, or the text's length when none does. */
function stringEnd(bytes: Buffer, start: number): number {
  for (let from = start + 1; ; ) {
    const quote = bytes.indexOf(QUOTE, from);
    if (quote === -1) return bytes.length;
    let backslashes = 0;
    while (quote - backslashes - 1 > start && bytes[quote - backslashes - 1] === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote;
    from = quote + 1;
  }
}

/** A width breach found in a text: where its container opened, and its place as indexes and key byte ranges. */
interface TextBreach {
  openAt: number;
  /** Per level below the top: an index (≥ 0), or a key's bytes from -(start + 1) to its end. */
  path: Array<number | readonly [number, number]>;
  kind: WidthBreach['kind'];
  size: number;
}

/**
 * The shape of a JSON text (UTF-8 bytes) against the limits, read from the text before it is parsed,
 * so a body past them never costs a parse (V8 takes a tenth of a second to build one object of
 * 120 000 members): one pass over the bytes, strings skipped whole, the open containers kept in
 * arrays by level (nothing allocated per container). Of valid JSON it says what measureJson says of
 * its parse; of any other text nothing useful (JSON.parse refuses it after).
 */
export function scanJsonText(bytes: Buffer, limits: JsonShapeLimits = BODY_SHAPE_LIMITS, keep = 10): JsonShape {
  const levels = limits.depth + 1;
  // Per open level: its kind, commas so far, whether it holds anything, where it opened, and for an
  // object whether a member name comes next and where the last one was.
  const isArray = new Uint8Array(levels);
  const commas = new Float64Array(levels);
  const filled = new Uint8Array(levels);
  const openAt = new Float64Array(levels);
  const expectKey = new Uint8Array(levels);
  const keyStart = new Float64Array(levels);
  const keyEnd = new Float64Array(levels);
  let depth = 0;
  const found: TextBreach[] = [];
  for (let at = 0; at < bytes.length; at++) {
    const byte = bytes[at];
    if (byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09) continue;
    const top = depth - 1;
    if (byte === QUOTE) {
      const end = stringEnd(bytes, at);
      if (depth > 0) {
        if (expectKey[top]) {
          keyStart[top] = at;
          keyEnd[top] = end + 1;
          expectKey[top] = 0;
        }
        filled[top] = 1;
      }
      at = end;
    } else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
      if (depth + 1 > limits.depth) return { tooDeep: true, breaches: [], breachCount: 0 };
      if (depth > 0) filled[top] = 1;
      isArray[depth] = byte === OPEN_ARRAY ? 1 : 0;
      commas[depth] = 0;
      filled[depth] = 0;
      openAt[depth] = at;
      expectKey[depth] = byte === OPEN_OBJECT ? 1 : 0;
      keyStart[depth] = -1;
      keyEnd[depth] = -1;
      depth++;
    } else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
      if (depth === 0) continue;
      const size = filled[top] ? commas[top] + 1 : 0;
      if (size > (isArray[top] ? limits.elements : limits.members)) {
        const path: TextBreach['path'] = [];
        for (let level = 0; level < top; level++) path.push(isArray[level] ? commas[level] : [keyStart[level], keyEnd[level]]);
        found.push({ openAt: openAt[top], path, kind: isArray[top] ? 'elements' : 'members', size });
      }
      depth--;
    } else if (byte === COMMA) {
      if (depth > 0) {
        commas[top]++;
        expectKey[top] = isArray[top] ? 0 : 1;
      }
    } else if (depth > 0) {
      filled[top] = 1;
    }
  }
  // Found as each closed: listed in document order, as measureJson lists them.
  found.sort((a, b) => a.openAt - b.openAt);
  const keyOf = (segment: number | readonly [number, number]): string | number => {
    if (typeof segment === 'number') return segment;
    const text = segment[0] < 0 ? '' : bytes.toString('utf8', segment[0], segment[1]);
    try {
      return String(JSON.parse(text));
    } catch {
      return text;
    }
  };
  return { tooDeep: false, breaches: found.slice(0, keep).map(({ path, kind, size }) => ({ path: path.map(keyOf), kind, size })), breachCount: found.length };
}

/** Whether a parsed JSON value nests objects and arrays deeper than `limit`; iterative, so any depth is safe to measure. */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  return measureJson(value, { depth: limit, members: Infinity, elements: Infinity }, 0).tooDeep;
}

/** A key as a message names it: as it is when plain, else quoted (JSON) and cut to 64 characters. */
function segmentText(segment: string | number): string {
  if (typeof segment === 'number') return String(segment);
  // eslint-disable-next-line no-control-regex
  if (segment.length > 0 && segment.length <= 64 && !/[.\s"\\\u0000-\u001f\u007f]/.test(segment)) return segment;
  return JSON.stringify(segment.length > 64 ? `${segment.slice(0, 64)}…` : segment);
}

/** A place in dot notation (`users.1.accounts`), or `root` for the value itself. */
export function placeOf(path: ReadonlyArray<string | number>, root: string): string {
  return path.length === 0 ? root : path.map(segmentText).join('.');
}

/**
 * A copy of the first `nodes` values of a parsed JSON value in document order (objects and arrays
 * count as one each, with what they hold after them), or the value itself when it holds no more.
 * Its JSON text begins as the whole value's does for at least `nodes` bytes (every value writes one
 * byte or more), so the journal keeps the same first 4 KB of a large body without walking all of it.
 */
export function leadingValues(value: unknown, nodes: number): unknown {
  if (typeof value !== 'object' || value === null) return value;
  type CopyFrame = { source: Record<string, unknown> | unknown[]; copy: Record<string, unknown> | unknown[]; keys: string[] | null; next: number };
  const shell = (node: object): CopyFrame => {
    const isArray = Array.isArray(node);
    return { source: node as CopyFrame['source'], copy: isArray ? [] : {}, keys: isArray ? null : Object.keys(node), next: 0 };
  };
  const root = shell(value);
  const frames = [root];
  let budget = nodes - 1;
  while (frames.length > 0) {
    const top = frames[frames.length - 1];
    const size = top.keys === null ? (top.source as unknown[]).length : top.keys.length;
    if (top.next >= size) {
      frames.pop();
      continue;
    }
    if (budget-- <= 0) return root.copy;
    const index = top.next++;
    const key = top.keys === null ? index : top.keys[index];
    const child = (top.source as Record<string | number, unknown>)[key];
    let kept = child;
    if (typeof child === 'object' && child !== null) {
      const frame = shell(child);
      frames.push(frame);
      kept = frame.copy;
    }
    if (top.keys === null) (top.copy as unknown[]).push(kept);
    // Defined, not assigned: a "__proto__" key stays data.
    else Object.defineProperty(top.copy, key, { value: kept, enumerable: true, writable: true, configurable: true });
  }
  return value;
}
