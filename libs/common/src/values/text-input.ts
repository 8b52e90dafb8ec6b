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
  const refuseKeys = options.prototypeKeys ?? true;
  const join = (key: string) => (root ? `${root}.${key}` : key);
  if (typeof value === 'string') {
    const kind = textProblem(value);
    return kind ? { path: root, kind } : null;
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findTextInputProblem(value[i], join(String(i)), options);
      if (found) return found;
    }
    return null;
  }
  if (!isPlainRecord(value)) return null;
  for (const key of Object.keys(value)) {
    if (refuseKeys && PROTOTYPE_KEYS.has(key)) return { path: join(key), kind: 'prototype-key' };
    const keyProblem = textProblem(key);
    if (keyProblem) return { path: join(JSON.stringify(key)), kind: keyProblem };
    const found = findTextInputProblem(value[key], join(key), options);
    if (found) return found;
  }
  return null;
}

/** A JSON-like object: `{}` (body parser) or a null-prototype object (query parser). */
export function isPlainRecord(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  // Any realm's Object.prototype (or none), not only this one's: a class instance has a longer chain.
  const prototype = Object.getPrototypeOf(value) as object | null;
  return prototype === null || Object.getPrototypeOf(prototype) === null;
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
