import { applyDecorators, createParamDecorator, ExecutionContext, SetMetadata, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiHeader } from '@nestjs/swagger';
import { Access, principalOf } from '@app/common';
import { CERTIFICATE_HEADER_DOC } from '../certificate/psd2-client.decorator';
import { ALLOWED_TOKEN_KINDS, DocumentPsuIpAddress, PsuIpAddressGuard, PsuIpAddressRequired } from '../psu-ip-address';
import type { Scope } from '../scopes';
import type { TokenKind } from '../tokens/token-kinds';
import type { Psd2Caller } from './psd2-caller';

export { ALLOWED_TOKEN_KINDS };

export const PSD2_TOKEN_STRATEGY = 'psd2-token';
export const REQUIRED_SCOPE = 'psd2:required-scope';

/**
 * A PSD2 resource route: the TPP's certificate plus one of its access tokens as bearer (contract §5).
 * PSU-IP-Address is required with a non-authenticated token (contract §2, bank §4.2, §5.9), optional
 * with the others; `@RequirePsuIpAddress()` on a handler makes it required with every token.
 */
export const Psd2Bearer = () =>
  applyDecorators(
    Access({ strategy: PSD2_TOKEN_STRATEGY }),
    PsuIpAddressRequired(['non_authenticated']),
    UseGuards(PsuIpAddressGuard),
    ApiBearerAuth('psd2-token'),
    ApiHeader(CERTIFICATE_HEADER_DOC),
    DocumentPsuIpAddress(),
  );

/** The scope the token must carry (403 SCOPE_NOT_GRANTED), whose role the certificate must carry too (403 ROLE_NOT_IN_CERTIFICATE). */
export const RequireScope = (scope: Scope) => SetMetadata(REQUIRED_SCOPE, scope);

/** The grants whose tokens this route accepts (else 403 TOKEN_KIND_NOT_ALLOWED). */
export const AllowTokenKinds = (...kinds: TokenKind[]) => SetMetadata(ALLOWED_TOKEN_KINDS, kinds);

/**
 * On a `@Psd2Bearer()` handler: `PSU-IP-Address` is required with every token (bank §9 rule 9 for
 * transfer signing start and collect; contract §2).
 */
export const RequirePsuIpAddress = () => PsuIpAddressRequired('every-call');

/** The TPP and the token's grant the guard resolved. */
export const CurrentPsd2Caller = createParamDecorator(
  (_: unknown, context: ExecutionContext): Psd2Caller => principalOf(context, 'psd2-caller').caller,
);
