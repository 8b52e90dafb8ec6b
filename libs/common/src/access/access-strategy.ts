import type { ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';

/**
 * Who a strategy authenticated, one entry per kind, each tagged with its `kind`. Common knows only
 * the admin; a lib adds its kinds by declaration merging beside its strategy
 * (`declare module '@app/common' { interface Principals { partner: PartnerPrincipal } }`), so the
 * guard, the strategies and the parameter decorators share one tagged union without common
 * depending on the libs.
 */
export interface Principals {
  admin: { kind: 'admin' };
  /**
   * No key, where self-service lets anyone in (contract §13 Self-service): known by its address only,
   * `caller` as the rate limit counts it (an IPv4 address or an IPv6 /64, selfServiceCallerOf).
   */
  'self-service': { kind: 'self-service'; ip: string; caller: string };
}

export type Principal = Principals[keyof Principals];
export type PrincipalKind = Principal['kind'];
export type PrincipalOf<K extends PrincipalKind> = Extract<Principal, { kind: K }>;

/**
 * Authenticates a request for one access policy: returns the principal (the guard attaches it as
 * `request.principal`) or throws a DomainError (401/403). Registered in AccessStrategyRegistry
 * under its name.
 */
export interface AccessStrategy {
  readonly name: string;
  authenticate(context: ExecutionContext, options?: Record<string, unknown>): Promise<Principal>;
}

export interface RequestWithPrincipal extends Request {
  principal?: Principal;
}

const isKind = <K extends PrincipalKind>(principal: Principal, kind: K): principal is PrincipalOf<K> => principal.kind === kind;

/**
 * The principal of kind `kind` the guard attached, for a parameter decorator. Another kind (or none)
 * means the route's access policy and its decorator disagree: a programming error, so a plain Error
 * (500, logged), never a cast.
 */
export function principalOf<K extends PrincipalKind>(context: ExecutionContext, kind: K): PrincipalOf<K> {
  const principal = context.switchToHttp().getRequest<RequestWithPrincipal>().principal;
  if (principal && isKind(principal, kind)) return principal;
  throw new Error(
    `${context.getClass().name}.${context.getHandler().name} reads a ${kind} principal, but its access policy gave ${principal ? principal.kind : 'none'}`,
  );
}
