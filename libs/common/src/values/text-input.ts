/**
 * What text the service accepts (contract §2): no C0 control characters (U+0000–U+001F) and no DEL
 * (U+007F) in any body field, path segment, query value or header it reads. PostgreSQL refuses
 * U+0000 in text, so without this rule a NUL became a 500.
 */
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;

export const CONTROL_CHARACTER_RULE = 'must not contain control characters (U+0000–U+001F, U+007F)';

export const hasControlCharacter = (text: string): boolean => CONTROL_CHARACTER.test(text);

/**
 * A UTF-16 surrogate without its pair: JSON can write one (`"\ud800"`), but it is no character, and
 * PostgreSQL's json and the certificate encoder refuse it (a 500 without this rule).
 */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export const LONE_SURROGATE_RULE = 'must be Unicode text (it holds a lone UTF-16 surrogate, \\ud800–\\udfff, that is no character)';

/** Whether the text breaks a text rule of contract §2, and which. */
function textProblem(text: string): TextInputProblem['kind'] | null {
  if (hasControlCharacter(text)) return 'control-character';
  return LONE_SURROGATE.test(text) ? 'lone-surrogate' : null;
}

/**
 * Keys that name JavaScript's object machinery. class-transformer drops them silently, so without
 * this rule they slipped past `forbidNonWhitelisted` where every other unknown field is 400.
 */
export const PROTOTYPE_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

export type TextInputProblem = { path: string; kind: 'control-character' | 'lone-surrogate' | 'prototype-key' };

/**
 * The first place in a parsed input (string, plain object or array, nested) that breaks the text
 * rules, as a dotted path from `root` (`applicants.0.name`); null when the input is clean. Only
 * plain objects and arrays are entered: class instances are the service's own values, not input.
 */
export function findTextInputProblem(value: unknown, root = '', options: { prototypeKeys?: boolean } = {}): TextInputProblem | null {
  const found = firstTextProblem(value, options.prototypeKeys ?? true);
  if (!found) return null;
  // The path is spelled only for the place found (a large clean body costs no strings).
  let path = root;
  for (let i = found.segments.length - 1; i >= 0; i--) path = path ? `${path}.${found.segments[i]}` : found.segments[i];
  return { path, kind: found.kind };
}

/** The first text problem in document order, with its place as segments from the deepest up. */
function firstTextProblem(value: unknown, refuseKeys: boolean): { segments: string[]; kind: TextInputProblem['kind'] } | null {
  if (typeof value === 'string') {
    const kind = textProblem(value);
    return kind ? { segments: [], kind } : null;
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      // Numbers, booleans and null break no rule: most elements are passed without a call.
      if (typeof item !== 'string' && (typeof item !== 'object' || item === null)) continue;
      const found = firstTextProblem(item, refuseKeys);
      if (found) {
        found.segments.push(String(i));
        return found;
      }
    }
    return null;
  }
  if (!isPlainRecord(value)) return null;
  for (const key of Object.keys(value)) {
    if (refuseKeys && PROTOTYPE_KEYS.has(key)) return { segments: [key], kind: 'prototype-key' };
    const keyProblem = textProblem(key);
    if (keyProblem) return { segments: [JSON.stringify(key)], kind: keyProblem };
    const field = value[key];
    if (typeof field !== 'string' && (typeof field !== 'object' || field === null)) continue;
    const found = firstTextProblem(field, refuseKeys);
    if (found) {
      found.segments.push(key);
      return found;
    }
  }
  return null;
}

/** One object or array being walked by inspectTextInput. */
interface TextFrame {
  node: Record<string, unknown> | unknown[];
  keys: string[] | null;
  next: number;
  segment: string;
}

/** Values a paced walk visits between looks at the clock. */
const VALUES_PER_LOOK = 1024;

/**
 * findTextInputProblem and whether a null sits anywhere (as withoutNullFields reads it), in one walk
 * without recursion that lets other work run between slices (`pacer`): a body may hold 300 000
 * values (contract §2, bounded work). The same first problem, in the same order, as findTextInputProblem.
 */
export async function inspectTextInput(
  value: unknown,
  root: string,
  options: { prototypeKeys?: boolean },
  pacer: { readonly due: boolean; pace(): Promise<void> },
): Promise<{ problem: TextInputProblem | null; holdsNull: boolean }> {
  const refuseKeys = options.prototypeKeys ?? true;
  if (typeof value === 'string') {
    const kind = textProblem(value);
    return { problem: kind ? { path: root, kind } : null, holdsNull: false };
  }
  if (value === null) return { problem: null, holdsNull: true };
  if (!Array.isArray(value) && !isPlainRecord(value)) return { problem: null, holdsNull: false };
  const frames: TextFrame[] = [{ node: value, keys: Array.isArray(value) ? null : Object.keys(value), next: 0, segment: '' }];
  const at = (segment: string): string => {
    let path = root;
    for (let i = 1; i < frames.length; i++) path = path ? `${path}.${frames[i].segment}` : frames[i].segment;
    return path ? `${path}.${segment}` : segment;
  };
  let holdsNull = false;
  let visited = 0;
  while (frames.length > 0) {
    if (++visited % VALUES_PER_LOOK === 0 && pacer.due) await pacer.pace();
    const top = frames[frames.length - 1];
    const size = top.keys === null ? (top.node as unknown[]).length : top.keys.length;
    if (top.next >= size) {
      frames.pop();
      continue;
    }
    const index = top.next++;
    let child: unknown;
    let segment: string | number = index;
    if (top.keys === null) {
      child = (top.node as unknown[])[index];
    } else {
      const key = top.keys[index];
      if (refuseKeys && PROTOTYPE_KEYS.has(key)) return { problem: { path: at(key), kind: 'prototype-key' }, holdsNull };
      const keyProblem = textProblem(key);
      if (keyProblem) return { problem: { path: at(JSON.stringify(key)), kind: keyProblem }, holdsNull };
      child = (top.node as Record<string, unknown>)[key];
      segment = key;
    }
    if (typeof child === 'string') {
      const kind = textProblem(child);
      if (kind) return { problem: { path: at(String(segment)), kind }, holdsNull };
    } else if (child === null) {
      holdsNull = true;
    } else if (Array.isArray(child) || isPlainRecord(child)) {
      frames.push({ node: child, keys: Array.isArray(child) ? null : Object.keys(child), next: 0, segment: String(segment) });
    }
  }
  return { problem: null, holdsNull };
}

/** A JSON-like object: `{}` (body parser) or a null-prototype object (query parser). */
export function isPlainRecord(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value) as object | null;
  // This realm's Object.prototype (every parsed body), or none; else any realm's, not a class instance's longer chain.
  return prototype === Object.prototype || prototype === null || Object.getPrototypeOf(prototype) === null;
}

/**
 * Contract §2: in a request body `null` for an optional field means absent. Returns the parsed
 * JSON without its null-valued properties (at every depth; a copy when it has any, else the input
 * itself); a required field left absent is then refused by its own validators, naming it. Array
 * elements are kept: `[null]` is not absence.
 */
export function withoutNullFields(value: unknown): unknown {
  // Most bodies hold no null: they are answered as they are, without a copy.
  return holdsNull(value) ? copyWithoutNullFields(value) : value;
}

function copyWithoutNullFields(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(copyWithoutNullFields);
  if (!isPlainRecord(value)) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    // defineProperty: an own `__proto__` key stays a key and never becomes the copy's prototype.
    if (field !== null) Object.defineProperty(copy, key, { value: copyWithoutNullFields(field), enumerable: true, writable: true, configurable: true });
  }
  return copy;
}

/** Whether a null sits anywhere in the arrays and plain objects that withoutNullFields enters. */
function holdsNull(value: unknown): boolean {
  if (value === null) return true;
  if (Array.isArray(value)) return value.some(holdsNull);
  if (!isPlainRecord(value)) return false;
  for (const key of Object.keys(value)) if (holdsNull(value[key])) return true;
  return false;
}
