import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiBearerAuth, ApiSecurity } from '@nestjs/swagger';

/**
 * What a route needs from its caller. Every route declares one; a route without it is refused
 * (deny by default). Later libs add their policies (TPP certificate, bearer token, partner) by
 * registering an AccessStrategy under a new name.
 */
export const ACCESS_POLICY = 'sandbox:access-policy';

export type AccessPolicy = { strategy: 'public' } | { strategy: string; options?: Record<string, unknown> };

export const Access = (policy: AccessPolicy) => SetMetadata(ACCESS_POLICY, policy);

/** No credentials needed (health, OpenAPI, sandbox helpers). */
export const Public = () => Access({ strategy: 'public' });

export const ADMIN_STRATEGY = 'admin';

/** `Authorization: Bearer <ADMIN_API_KEY>`; closed (403) when no key is configured (contract §3). */
export const AdminOnly = () => applyDecorators(Access({ strategy: ADMIN_STRATEGY }), ApiBearerAuth('admin'));

/**
 * `@AdminOnly()`, except that with SANDBOX_SELF_SERVICE on a request without any key passes as the
 * self-service principal (contract §13 Self-service). A key that is given must be the operator key.
 */
export const AdminOrSelfService = () =>
  applyDecorators(Access({ strategy: ADMIN_STRATEGY, options: { selfService: true } }), ApiBearerAuth('admin'), ApiSecurity({}));
