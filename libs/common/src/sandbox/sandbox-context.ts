import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingMessage } from 'node:http';
import type { EntityManager } from 'typeorm';
import type { Hint } from '../journal/hint-catalogue';

/** The id of the sandbox served at the root paths (contract §13). */
export const DEFAULT_SANDBOX_ID = 'default';

/** What a unit of work (a request, a job run, a CLI command) runs as. */
export interface SandboxScope {
  readonly sandboxId: string;
  /** The open transaction's manager, set by SandboxDb.transaction; repository calls inside use it. */
  readonly manager?: EntityManager;
  /** A recorded request's hint list (contract §14), which RequestHints.raise adds to. */
  readonly hints?: Hint[];
  /** The HTTP request this work serves, which a log line written meanwhile names. */
  readonly request?: IncomingMessage;
}

export class NoSandboxContext extends Error {
  constructor() {
    super('No sandbox context: run this work inside SandboxContext.run(sandboxId, …) (every request, job run and CLI command enters one)');
  }
}

const storage = new AsyncLocalStorage<SandboxScope>();

/**
 * Which sandbox the current work belongs to (contract §13), carried by AsyncLocalStorage from the
 * edge (the HTTP middleware, the job runner, the CLI) to every repository and the clock, so no
 * use case passes it along. Outside any context `current()` throws: nothing silently falls back to
 * the default sandbox.
 */
export const SandboxContext = {
  /** Runs `work` in the sandbox; a request also brings itself and, recorded, its hint list (one context for all). */
  run<T>(sandboxId: string, work: () => T, request?: IncomingMessage, hints?: Hint[]): T {
    return storage.run({ sandboxId, hints, request }, work);
  },

  /** Runs `work` in the current sandbox with `manager` as the transaction repository calls join. */
  withManager<T>(manager: EntityManager, work: () => T): T {
    return storage.run({ ...SandboxContext.current(), manager }, work);
  },

  current(): SandboxScope {
    const scope = storage.getStore();
    if (!scope) throw new NoSandboxContext();
    return scope;
  },

  get sandboxId(): string {
    return SandboxContext.current().sandboxId;
  },

  /** The current request's hint list, if it is recorded (undefined outside one: a job run, the CLI). */
  get hints(): Hint[] | undefined {
    return storage.getStore()?.hints;
  },

  /** The HTTP request the current work serves, if any (undefined in a job run or the CLI). */
  get request(): IncomingMessage | undefined {
    return storage.getStore()?.request;
  },

  /** Whether any sandbox context is entered (for code that must not throw, e.g. logging). */
  get active(): boolean {
    return storage.getStore() !== undefined;
  },
};
