import { SandboxContext } from '../sandbox/sandbox-context';
import { type Hint, type HintCode, type HintParams, hintOf } from './hint-catalogue';

/**
 * The hints of the request being handled (contract §14): the code that owns a rule raises them
 * where it applies the rule; the edge that entered the request reads them into the journal entry
 * and the `Sandbox-Hints` header. The list travels in the request's sandbox context (the edge
 * enters both at once: one AsyncLocalStorage per request). Outside a recorded request (a job run,
 * the CLI, JOURNAL=off) a raised hint is dropped.
 */
export const RequestHints = {
  raise<C extends HintCode>(code: C, ...params: HintParams<C> extends Record<string, never> ? [] : [HintParams<C>]): void {
    const hints = SandboxContext.hints;
    // One finding of a kind per request: a rule checked twice says it once.
    if (hints && !hints.some((hint) => hint.code === code)) hints.push(hintOf(code, ...params));
  },

  /** The `Sandbox-Hints` header value: `CODE, CODE` (undefined: no header). */
  header(hints: readonly Hint[]): string | undefined {
    return hints.length === 0 ? undefined : hints.map((hint) => hint.code).join(', ');
  },
};
