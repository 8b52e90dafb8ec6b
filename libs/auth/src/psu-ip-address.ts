import { CanActivate, createParamDecorator, ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { PATH_METADATA } from '@nestjs/common/constants';
import { Reflector } from '@nestjs/core';
import { ApiHeader } from '@nestjs/swagger';
import { type Principal, RequestHints, type RequestWithPrincipal, ValidationFailed } from '@app/common';
import type { TokenKind } from './tokens/token-kinds';

/**
 * Where contract §2 requires `PSU-IP-Address`, applied from route metadata by one guard: the route
 * says when it must be sent — on every call (`'every-call'`: the bank §4.1 calls, transfer signing
 * start and collect) or with tokens of these kinds (a non-authenticated token, bank §4.2, §5.9).
 * 400 VALIDATION_FAILED naming the header (invalid_request on the token endpoint, whose filter maps
 * it). That a value sent is an IPv4 or IPv6 address holds on every route: the global header guard
 * of @app/common checks it, before this one.
 */
export const PSU_IP_ADDRESS_RULE = 'psd2:psu-ip-address-rule';
/** Set by `@AllowTokenKinds()`; here so that the header's documentation can name the kinds that apply. */
export const ALLOWED_TOKEN_KINDS = 'psd2:allowed-token-kinds';
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
    if (request.headers[HEADER] === undefined && rule && isRequired(rule, request.principal)) {
      RequestHints.raise('MISSING_PSU_IP');
      throw new ValidationFailed('The PSU-IP-Address header (the PSU\'s IPv4 or IPv6 address) is required on this call' + (rule.requiredFor === 'every-call' ? '' : ' with this token'));
    }
    return true;
  }
}

function isRequired(rule: PsuIpAddressRule, principal: Principal | undefined): boolean {
  if (rule.requiredFor === 'every-call') return true;
  return principal?.kind === 'psd2-caller' && rule.requiredFor.includes(principal.caller.token.kind);
}

/** Sets the route's rule; the handler's overrides its controller's. */
export const PsuIpAddressRequired = (requiredFor: PsuIpAddressRule['requiredFor']) => SetMetadata(PSU_IP_ADDRESS_RULE, { requiredFor } satisfies PsuIpAddressRule);

const HEADER_DOC = { name: 'PSU-IP-Address', description: 'IPv4 or IPv6 address of the PSU' };

/**
 * Documents the header on each route from the same rule the guard applies (one parameter per route,
 * required or not). Applied last, on the controller or a handler: a class decorator runs after its
 * handlers' decorators, so each handler's own rule is known by then.
 */
export const DocumentPsuIpAddress = (): ClassDecorator & MethodDecorator =>
  (target: object, key?: string | symbol, descriptor?: PropertyDescriptor) => {
    const document = (handler: object, name: string | symbol, method: PropertyDescriptor, fallback?: PsuIpAddressRule) => {
      const rule = (Reflect.getMetadata(PSU_IP_ADDRESS_RULE, method.value as object) as PsuIpAddressRule | undefined) ?? fallback;
      const required = rule?.requiredFor === 'every-call';
      // Name only the kinds the route takes at all (PIS 3.0 refuses non-authenticated tokens anyway).
      const allowed = (Reflect.getMetadata(ALLOWED_TOKEN_KINDS, method.value as object) ?? Reflect.getMetadata(ALLOWED_TOKEN_KINDS, handler.constructor)) as TokenKind[] | undefined;
      const requiredFor = rule && rule.requiredFor !== 'every-call' ? rule.requiredFor.filter((kind) => !allowed || allowed.includes(kind)) : [];
      const kinds = requiredFor.length ? `; required with a ${requiredFor.join(' or ').replace(/_/g, '-')} token` : '';
      ApiHeader({ ...HEADER_DOC, required, description: HEADER_DOC.description + kinds })(handler, name, method);
    };
    if (key !== undefined && descriptor) {
      document(target, key, descriptor, Reflect.getMetadata(PSU_IP_ADDRESS_RULE, (target as { constructor: object }).constructor) as PsuIpAddressRule | undefined);
      return;
    }
    const controller = target as { prototype: object };
    const classRule = Reflect.getMetadata(PSU_IP_ADDRESS_RULE, controller) as PsuIpAddressRule | undefined;
    for (const name of Object.getOwnPropertyNames(controller.prototype)) {
      const method = Object.getOwnPropertyDescriptor(controller.prototype, name);
      if (name === 'constructor' || typeof method?.value !== 'function' || !Reflect.hasMetadata(PATH_METADATA, method.value as object)) continue;
      document(controller.prototype, name, method, classRule);
    }
  };

/** The header's value, already checked by the guards (undefined where it is optional and absent). */
export const PsuIpAddress = createParamDecorator(
  (_: unknown, context: ExecutionContext): string | undefined => context.switchToHttp().getRequest<RequestWithPrincipal>().headers[HEADER] as string | undefined,
);
