import { applyDecorators, createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import { ApiBearerAuth, ApiHeader } from '@nestjs/swagger';
import { Access, type RequestWithPrincipal } from '@app/common';
import { CERTIFICATE_HEADER_DOC, PSU_IP_HEADER_DOC } from '../certificate/psd2-client.decorator';
import type { Scope } from '../scopes';
import { TOKEN_KINDS, type TokenKind } from '../tokens/token-kinds';
import type { Psd2Caller } from './psd2-caller';

export const PSD2_TOKEN_STRATEGY = 'psd2-token';
export const REQUIRED_SCOPE = 'psd2:required-scope';
export const ALLOWED_TOKEN_KINDS = 'psd2:allowed-token-kinds';
export const PSU_IP_REQUIRED_FOR = 'psd2:psu-ip-required-for';

/** A PSD2 resource route: the TPP's certificate plus one of its access tokens as bearer (contract §5). */
export const Psd2Bearer = () =>
  applyDecorators(Access({ strategy: PSD2_TOKEN_STRATEGY }), ApiBearerAuth('psd2-token'), ApiHeader(CERTIFICATE_HEADER_DOC));

/** The scope the token must carry (403 SCOPE_NOT_GRANTED), whose role the certificate must carry too (403 ROLE_NOT_IN_CERTIFICATE). */
export const RequireScope = (scope: Scope) => SetMetadata(REQUIRED_SCOPE, scope);

/** The grants whose tokens this route accepts (else 403 TOKEN_KIND_NOT_ALLOWED). */
export const AllowTokenKinds = (...kinds: TokenKind[]) => SetMetadata(ALLOWED_TOKEN_KINDS, kinds);

/**
 * `PSU-IP-Address` is mandatory on this route for tokens of these kinds (all kinds when none are
 * named): bank §4.2 for AIS with a non-authenticated token, §9 rule 9 for transfer signing. 400
 * naming the header, checked after the credentials.
 */
export const RequirePsuIpAddress = (...kinds: TokenKind[]) =>
  applyDecorators(SetMetadata(PSU_IP_REQUIRED_FOR, kinds.length ? kinds : [...TOKEN_KINDS]), ApiHeader({ ...PSU_IP_HEADER_DOC, required: !kinds.length }));

/** The TPP and the token's grant the guard resolved. */
export const CurrentPsd2Caller = createParamDecorator(
  (_: unknown, context: ExecutionContext): Psd2Caller => context.switchToHttp().getRequest<RequestWithPrincipal>().principal as Psd2Caller,
);
