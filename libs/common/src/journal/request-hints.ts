import { AsyncLocalStorage } from 'node:async_hooks';
import { type Hint, type HintCode, type HintParams, hintOf } from './hint-catalogue';

const storage = new AsyncLocalStorage<Hint[]>();

/**
 * The hints of the request being handled (contract §14): the code that owns a rule raises them
 * where it applies the rule; the edge that entered the request reads them into the journal entry
 * and the `Sandbox-Hints` header. Outside a request (a job run, the CLI) a raised hint is dropped.
 */
export const RequestHints = {
  /** Runs a request's handling with `hints` as its list (the edge, once per request). */
  run<T>(hints: Hint[], work: () => T): T {
    return storage.run(hints, work);
  },

  raise<C extends HintCode>(code: C, ...params: HintParams<C> extends Record<string, never> ? [] : [HintParams<C>]): void {
    const hints = storage.getStore();
    // One finding of a kind per request: a rule checked twice says it once.
    if (hints && !hints.some((hint) => hint.code === code)) hints.push(hintOf(code, ...params));
  },

  /** The `Sandbox-Hints` header value: `CODE, CODE` (undefined: no header). */
  header(hints: readonly Hint[]): string | undefined {
    return hints.length === 0 ? undefined : hints.map((hint) => hint.code).join(', ');
  },
};
