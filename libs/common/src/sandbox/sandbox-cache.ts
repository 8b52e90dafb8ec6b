import { generationAtStart } from './request-sandbox';
import { SandboxContext } from './sandbox-context';

/** Where a cache learns the current sandbox's generation (bumped when a sandbox is reset or deleted). */
export interface SandboxGenerations {
  /** The context's sandbox's generation as this instance last read it. */
  readonly generation: string;
  /** Calls `listener` with each sandbox deleted or reset, as soon as this instance knows. */
  onForget?(listener: (sandboxId: string) => void): void;
}

/**
 * An in-process cache of sandbox data, keyed by (key, sandbox, generation): the same key is legal
 * in two sandboxes, and a reset or delete (a new generation) leaves the old entries unreachable.
 * It is a Map of the callers' own keys (a hash, never a clear secret: issue 13 checks the keys of
 * every provider's Maps) to that key's entries per sandbox and generation; read and write it with
 * `lookup` and `remember`. Bounded: past `capacity` entries in all the oldest key goes with its
 * entries. A sandbox deleted or reset loses its entries at once (`onForget`), found through a
 * per-sandbox index of its keys, so forgetting costs its own entries, not the whole cache. A request
 * that straddled a reset remembers nothing.
 */
export class SandboxCache<V> extends Map<string, Map<string, V>> {
  /** Which keys hold an entry of each sandbox. */
  private readonly keysOf = new Map<string, Set<string>>();
  private count = 0;

  constructor(
    private readonly generations: SandboxGenerations,
    private readonly capacity = 10_000,
  ) {
    super();
    generations.onForget?.((sandboxId) => this.forgetSandbox(sandboxId));
  }

  lookup(key: string): V | undefined {
    const scope = this.scope(); // first: outside a sandbox context this throws, found or not
    return this.get(key)?.get(scope);
  }

  remember(key: string, value: V): void {
    const scope = this.scope();
    // A request that began before a reset this instance has since adopted may have read the old
    // world: what it found must not be taken for the new generation's (contract §13 reset).
    const startedIn = generationAtStart(SandboxContext.request);
    if (startedIn !== undefined && startedIn !== this.generations.generation) return;
    const sandboxId = SandboxContext.sandboxId;
    // An entry of an older generation of this sandbox can never be read again.
    const sandbox = `${sandboxId}/`;
    const existing = this.get(key);
    for (const old of existing?.keys() ?? []) {
      if (old.startsWith(sandbox)) {
        existing?.delete(old);
        this.count--;
      }
    }
    while (this.count >= this.capacity && this.size > 0) this.drop(this.keys().next().value as string);
    let entries = this.get(key);
    if (!entries) {
      entries = new Map();
      this.set(key, entries);
    }
    entries.set(scope, value);
    this.count++;
    let keys = this.keysOf.get(sandboxId);
    if (!keys) {
      keys = new Set();
      this.keysOf.set(sandboxId, keys);
    }
    keys.add(key);
  }

  /** Every entry of the sandbox, whatever its generation. */
  forgetSandbox(sandboxId: string): void {
    const sandbox = `${sandboxId}/`;
    for (const key of this.keysOf.get(sandboxId) ?? []) {
      const entries = this.get(key);
      if (!entries) continue;
      for (const scope of entries.keys()) {
        if (scope.startsWith(sandbox)) {
          entries.delete(scope);
          this.count--;
        }
      }
      if (entries.size === 0) this.delete(key);
    }
    this.keysOf.delete(sandboxId);
  }

  /** A key with all its entries. */
  private drop(key: string): void {
    const entries = this.get(key);
    if (!entries) return;
    for (const scope of entries.keys()) {
      const sandboxId = scope.slice(0, scope.lastIndexOf('/'));
      const keys = this.keysOf.get(sandboxId);
      keys?.delete(key);
      if (keys?.size === 0) this.keysOf.delete(sandboxId);
    }
    this.count -= entries.size;
    this.delete(key);
  }

  private scope(): string {
    return `${SandboxContext.sandboxId}/${this.generations.generation}`;
  }
}
