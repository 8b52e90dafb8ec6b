import { CanActivate, createParamDecorator, ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { isIpAddress, type RequestWithPrincipal, ValidationFailed } from '@app/common';
import type { TokenKind } from './tokens/token-kinds';

/**
 * The one `PSU-IP-Address` rule of contract §2, applied from route metadata by one guard: on every
 * PSD2 route a value that is sent must be an IPv4 or IPv6 address, and the route says when it must
 * be sent — on every call (`'every-call'`: the bank §4.1 calls, transfer signing start and collect)
 * or with tokens of these kinds (a non-authenticated token, bank §4.2, §5.9). 400 VALIDATION_FAILED
 * naming the header (invalid_request on the token endpoint, whose filter maps it).
 */
export const PSU_IP_ADDRESS_RULE = 'psd2:psu-ip-address-rule';
export type PsuIpAddressRule = { requiredFor: 'every-call' | readonly TokenKind[] };

const HEADER = 'psu-ip-address';

/**
 * Bound to the PSD2 routes by `@Psd2Certificate()` and `@Psd2Bearer()` with `UseGuards`, so it runs
 * after the global access guard: credentials (401/403) before this input check (contract §1).
 */
@Injectable()
export class PsuIpAddressGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const rule = this.reflector.getAllAndOverride<PsuIpAddressRule | undefined>(PSU_IP_ADDRESS_RULE, [context.getHandler(), context.getClass()]);
    const request = context.switchToHttp().getRequest<RequestWithPrincipal>();
    const value = request.headers[HEADER];
    if (value !== undefined) {
      if (!isIpAddress(value)) throw new ValidationFailed(`PSU-IP-Address must be an IPv4 or IPv6 address (got ${JSON.stringify(value)})`);
      return true;
    }
    if (rule && isRequired(rule, request.principal)) {
      throw new ValidationFailed('The PSU-IP-Address header (the PSU\'s IPv4 or IPv6 address) is required on this call' + (rule.requiredFor === 'every-call' ? '' : ' with this token'));
    }
    return true;
  }
}

function isRequired(rule: PsuIpAddressRule, principal: unknown): boolean {
  if (rule.requiredFor === 'every-call') return true;
  const kind = (principal as { token?: { kind?: TokenKind } } | undefined)?.token?.kind;
  return kind !== undefined && rule.requiredFor.includes(kind);
}

/** Sets the route's rule; the handler's overrides its controller's. */
export const PsuIpAddressRequired = (requiredFor: PsuIpAddressRule['requiredFor']) => SetMetadata(PSU_IP_ADDRESS_RULE, { requiredFor } satisfies PsuIpAddressRule);

/** The header's value, already checked by PsuIpAddressGuard (undefined where it is optional and absent). */
export const PsuIpAddress = createParamDecorator(
  (_: unknown, context: ExecutionContext): string | undefined => context.switchToHttp().getRequest<RequestWithPrincipal>().headers[HEADER] as string | undefined,
);
