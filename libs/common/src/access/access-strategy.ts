import type { ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';

/**
 * Authenticates a request for one access policy: returns the principal (the guard attaches it as
 * `request.principal`) or throws a DomainError (401/403). Registered in AccessStrategyRegistry
 * under its name.
 */
export interface AccessStrategy {
  readonly name: string;
  authenticate(context: ExecutionContext, options?: Record<string, unknown>): Promise<unknown>;
}

export interface RequestWithPrincipal extends Request {
  principal?: unknown;
}
