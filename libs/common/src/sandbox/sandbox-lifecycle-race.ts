import { Injectable } from '@nestjs/common';
import { SandboxClock } from '../clock/sandbox-clock';
import { DomainError } from '../errors/domain-error';
import type { RequestWithSandbox } from './request-sandbox';
import { DEFAULT_SANDBOX_ID } from './sandbox-context';
import { DeletedSandbox, isWriteToDeletedSandbox, SandboxRegistry } from './sandbox-registry';

/**
 * The sandbox was reset while the request ran (contract §13 Lifecycle): what the request read
 * before the reset no longer exists after it, so it could not finish. 503 with Retry-After: sent
 * again, it runs in the sandbox as newly created.
 */
export class SandboxResetMeanwhile extends DomainError {
  constructor() {
    super('SANDBOX_RESET', 'This sandbox was reset while the request ran, so the request could not finish: send it again.', { 'Retry-After': '1' });
  }
}

/**
 * How an error answer of a request whose sandbox was reset or deleted while it ran is told
 * (contract §2 "never a 500", §13 Lifecycle). The hot paths pay nothing: requests take no lock and
 * read nothing more; only an answer that may come from such a race reads the sandbox row once
 * (SandboxRegistry.committedGeneration) before it goes out:
 * - an unexpected error (a write that found the sandbox's row or a row it read gone: a foreign key
 *   violation; anything else that would be a 500): deleted → 404; reset since the request began
 *   (its generation moved) → 503 SANDBOX_RESET;
 * - a 400 or 401 under a created sandbox (an unknown user, key or token: what a request reads of a
 *   sandbox deleted under it) → the sandbox's 404 when it no longer exists.
 * A sandbox found gone is dropped from this instance at once. Everything else is answered as it was.
 */
@Injectable()
export class SandboxLifecycleRace {
  constructor(
    private readonly registry: SandboxRegistry,
    private readonly clock: SandboxClock,
  ) {}

  /** undefined: answer `exception` as it is, at once; else what to answer instead (never rejects). */
  recheck(request: RequestWithSandbox, exception: unknown, status: number): Promise<unknown> | undefined {
    const sandboxId = request.sandboxId;
    if (sandboxId === undefined) return undefined;
    const unexpected = isWriteToDeletedSandbox(exception) || (status >= 500 && !(exception instanceof DomainError));
    // The default sandbox is never deleted: its refusals are what they say.
    const refusal = (status === 400 || status === 401) && sandboxId !== DEFAULT_SANDBOX_ID;
    if (!unexpected && !refusal) return undefined;
    return this.registry.committedGeneration(sandboxId).then(
      (generation) => {
        if (generation === null) {
          if (sandboxId === DEFAULT_SANDBOX_ID) return exception;
          // Found gone: this instance drops it at once, as the routing does (its mark, clock copy and cache entries).
          this.registry.forget(sandboxId);
          this.clock.forget(sandboxId);
          return new DeletedSandbox();
        }
        if (!unexpected) return exception;
        // The sandbox's row went and came back: only a reset does that.
        if (isWriteToDeletedSandbox(exception)) return new SandboxResetMeanwhile();
        const startedIn = request.sandboxGeneration;
        return startedIn !== undefined && startedIn !== generation ? new SandboxResetMeanwhile() : exception;
      },
      () => exception,
    );
  }
}
