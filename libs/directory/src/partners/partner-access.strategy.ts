import { applyDecorators, createParamDecorator, ExecutionContext, Injectable, OnModuleInit } from '@nestjs/common';
import { ApiBearerAuth } from '@nestjs/swagger';
import type { Request } from 'express';
import { Access, AccessStrategyRegistry, type AccessStrategy, BearerAuthenticator, principalOf, type PrincipalOf } from '@app/common';
import type { Partner } from './partner';
import { PartnerService } from './partner.service';

export const PARTNER_STRATEGY = 'partner';

declare module '@app/common' {
  interface Principals {
    partner: { kind: 'partner'; partner: Partner };
  }
}

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

/** A person authenticated to a partner's service by an enterprise end-user token (bank §4.6). */
export interface EndUser {
  personalNumber: string;
  scopes: string[];
  partnerId: string;
}

/** Resolves enterprise end-user tokens; the enterprise lib registers its resolver. */
@Injectable()
export class EndUserCredentials {
  private resolver: ((bearer: string) => Promise<EndUser | null>) | null = null;

  register(resolver: (bearer: string) => Promise<EndUser | null>): void {
    this.resolver = resolver;
  }

  resolve(bearer: string): Promise<EndUser | null> {
    return this.resolver ? this.resolver(bearer) : Promise.resolve(null);
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
    (value) => this.credentials.resolve(value),
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
    return { kind: 'partner', partner: await (options?.keyOnly ? this.keyOnly : this.bearer).authenticate(context.switchToHttp().getRequest<Request>()) };
  }
}

/** A partner route: `Authorization: Bearer <partner key or client-credentials token>` (contract §3); 401 otherwise. */
export const PartnerAuth = (options: { keyOnly?: boolean } = {}) =>
  applyDecorators(Access({ strategy: PARTNER_STRATEGY, options }), ApiBearerAuth('partner'));

export const CurrentPartner = createParamDecorator(
  (_: unknown, context: ExecutionContext): Partner => principalOf(context, 'partner').partner,
);
