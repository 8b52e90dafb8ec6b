import { applyDecorators, createParamDecorator, ExecutionContext, Injectable, OnModuleInit } from '@nestjs/common';
import { ApiBearerAuth } from '@nestjs/swagger';
import type { Request } from 'express';
import { Access, AccessStrategyRegistry, type AccessStrategy, BearerAuthenticator, principalOf, type PrincipalOf, RequestCaller } from '@app/common';
import type { Partner } from './partner';
import { PartnerCredentials } from './partner-credentials';
import { PartnerService } from './partner.service';

export const PARTNER_STRATEGY = 'partner';

declare module '@app/common' {
  interface Principals {
    partner: { kind: 'partner'; partner: Partner };
  }
}

/**
 * The `@PartnerAuth()` policy (signing, mortgage, loan applications): the partner key, looked up by
 * its hash, or an enterprise client-credentials token; `@PartnerAuth({ keyOnly: true })` takes the key
 * alone (the enterprise interface itself, bank §4.6).
 */
@Injectable()
export class PartnerAccessStrategy implements AccessStrategy, OnModuleInit {
  readonly name = PARTNER_STRATEGY;
  private readonly bearer = new BearerAuthenticator<Partner>(
    (value, request) => this.credentials.resolve(value, request),
    'The partner interfaces need Authorization: Bearer <partner api key or enterprise access token>.',
  );
  private readonly keyOnly = new BearerAuthenticator<Partner>(
    (value) => this.partners.authenticate(value),
    'This call needs Authorization: Bearer <partner api key>.',
  );

  constructor(
    private readonly credentials: PartnerCredentials,
    private readonly partners: PartnerService,
    private readonly registry: AccessStrategyRegistry,
  ) {}

  onModuleInit(): void {
    this.credentials.register((key) => this.partners.authenticate(key));
    this.registry.register(this);
  }

  async authenticate(context: ExecutionContext, options?: { keyOnly?: boolean }): Promise<PrincipalOf<'partner'>> {
    const request = context.switchToHttp().getRequest<Request>();
    const partner = await (options?.keyOnly ? this.keyOnly : this.bearer).authenticate(request);
    RequestCaller.identify(request, { kind: 'partner', id: partner.id });
    return { kind: 'partner', partner };
  }
}

/** A partner route: `Authorization: Bearer <partner key or client-credentials token>` (contract §3); 401 otherwise. */
export const PartnerAuth = (options: { keyOnly?: boolean } = {}) =>
  applyDecorators(Access({ strategy: PARTNER_STRATEGY, options }), ApiBearerAuth('partner'));

export const CurrentPartner = createParamDecorator(
  (_: unknown, context: ExecutionContext): Partner => principalOf(context, 'partner').partner,
);
