import { SandboxContext } from './sandbox-context';

/** Where a cache learns the current sandbox's generation (bumped when a sandbox is reset or deleted). */
export interface SandboxGenerations {
  /** The context's sandbox's generation as this instance last read it. */
  readonly generation: string;
}

/**
 * An in-process cache of sandbox data, keyed by (key, sandbox, generation): the same key is legal
 * in two sandboxes, and a reset or delete (a new generation) leaves the old entries unreachable.
 * It is a Map of the callers' own keys (a hash, never a clear secret: issue 13 checks the keys of
 * every provider's Maps) to that key's entries per sandbox and generation; read and write it with
 * `lookup` and `remember`. Bounded: past `capacity` keys the oldest goes.
 */
export class SandboxCache<V> extends Map<string, Map<string, V>> {
  constructor(
    private readonly generations: SandboxGenerations,
    private readonly capacity = 10_000,
  ) {
    super();
  }

  lookup(key: string): V | undefined {
    const scope = this.scope(); // first: outside a sandbox context this throws, found or not
    return this.get(key)?.get(scope);
  }

  remember(key: string, value: V): void {
    let entries = this.get(key);
    if (!entries) {
      if (this.size >= this.capacity) this.delete(this.keys().next().value as string);
      entries = new Map();
      this.set(key, entries);
    }
    const scope = this.scope();
    // An entry of an older generation of this sandbox can never be read again.
    const sandbox = scope.slice(0, scope.lastIndexOf('/') + 1);
    for (const old of entries.keys()) if (old.startsWith(sandbox)) entries.delete(old);
    entries.set(scope, value);
  }

  private scope(): string {
    return `${SandboxContext.sandboxId}/${this.generations.generation}`;
  }
}
