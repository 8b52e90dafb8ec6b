import { applyDecorators, createParamDecorator, ExecutionContext, Injectable, OnModuleInit } from '@nestjs/common';
import { ApiBearerAuth } from '@nestjs/swagger';
import type { Request } from 'express';
import { Access, AccessStrategyRegistry, type AccessStrategy, BearerAuthenticator, type RequestWithPrincipal } from '@app/common';
import type { Partner } from './partner';
import { PartnerService } from './partner.service';

export const PARTNER_STRATEGY = 'partner';

/**
 * Turns a bearer value into the partner it stands for. The partner key is one; the enterprise
 * interface adds its client-credentials access tokens (contract §3) by registering another.
 */
export type PartnerCredentialResolver = (bearer: string) => Promise<Partner | null>;

/** The resolvers in order of registration; the first that knows the bearer value wins. */
@Injectable()
export class PartnerCredentials {
  private readonly resolvers: PartnerCredentialResolver[] = [];

  register(resolver: PartnerCredentialResolver): void {
    this.resolvers.push(resolver);
  }

  async resolve(bearer: string): Promise<Partner | null> {
    for (const resolver of this.resolvers) {
      const partner = await resolver(bearer);
      if (partner) return partner;
    }
    return null;
  }
}

/** The `@PartnerAuth()` policy (signing, mortgage, loan applications): the partner key is looked up by its hash. */
@Injectable()
export class PartnerAccessStrategy implements AccessStrategy, OnModuleInit {
  readonly name = PARTNER_STRATEGY;
  private readonly bearer = new BearerAuthenticator<Partner>(
    (value) => this.credentials.resolve(value),
    'The partner interfaces need Authorization: Bearer <partner api key or enterprise access token>.',
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

  authenticate(context: ExecutionContext): Promise<Partner> {
    return this.bearer.authenticate(context.switchToHttp().getRequest<Request>());
  }
}

/** A partner route: `Authorization: Bearer <partner key>` (contract §3); 401 otherwise. */
export const PartnerAuth = () => applyDecorators(Access({ strategy: PARTNER_STRATEGY }), ApiBearerAuth('partner'));

export const CurrentPartner = createParamDecorator(
  (_: unknown, context: ExecutionContext): Partner => context.switchToHttp().getRequest<RequestWithPrincipal>().principal as Partner,
);
