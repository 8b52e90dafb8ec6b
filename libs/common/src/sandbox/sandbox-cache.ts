import { SandboxContext } from './sandbox-context';

/** Where a cache learns the current sandbox's generation (bumped when a sandbox is reset or deleted). */
export interface SandboxGenerations {
  /** The context's sandbox's generation as this instance last read it. */
  readonly generation: string;
}

/**
 * An in-process cache of sandbox data, keyed by (sandbox, generation, key): the same key is legal
 * in two sandboxes, and a reset or delete (a new generation) leaves the old entries unreachable.
 * Bounded: past `capacity` the oldest entry goes.
 */
export class SandboxCache<V> {
  private readonly entries = new Map<string, V>();

  constructor(
    private readonly generations: SandboxGenerations,
    private readonly capacity = 10_000,
  ) {}

  get(key: string): V | undefined {
    return this.entries.get(this.scoped(key));
  }

  set(key: string, value: V): void {
    if (this.entries.size >= this.capacity) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(this.scoped(key), value);
  }

  private scoped(key: string): string {
    return `${SandboxContext.sandboxId}\u0000${this.generations.generation}\u0000${key}`;
  }
}
