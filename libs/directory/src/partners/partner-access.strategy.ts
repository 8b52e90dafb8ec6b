import { applyDecorators, createParamDecorator, ExecutionContext, Injectable, OnModuleInit } from '@nestjs/common';
import { AuthGuard, PassportStrategy } from '@nestjs/passport';
import { ApiBearerAuth } from '@nestjs/swagger';
import { Strategy as BearerStrategy } from 'passport-http-bearer';
import { Access, AccessStrategyRegistry, type AccessStrategy, type RequestWithPrincipal, Unauthorized } from '@app/common';
import type { Partner } from './partner';
import { PartnerService } from './partner.service';

export const PARTNER_STRATEGY = 'partner';
const PASSPORT_NAME = 'sandbox-partner';

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

/** passport-http-bearer reads `Authorization: Bearer …`; the partner key is looked up by its hash. */
@Injectable()
export class PartnerPassportStrategy extends PassportStrategy(BearerStrategy, PASSPORT_NAME) implements OnModuleInit {
  constructor(
    private readonly credentials: PartnerCredentials,
    private readonly partners: PartnerService,
  ) {
    super();
  }

  onModuleInit(): void {
    this.credentials.register((key) => this.partners.authenticate(key));
  }

  async validate(bearer: string): Promise<Partner | false> {
    return (await this.credentials.resolve(bearer)) ?? false;
  }
}

class PartnerGuard extends AuthGuard(PASSPORT_NAME) {
  override handleRequest<T>(error: unknown, partner: T): T {
    if (error) throw error;
    if (!partner) throw new Unauthorized('The partner interfaces need Authorization: Bearer <partner api key or enterprise access token>.');
    return partner;
  }
}

/** The `@PartnerAuth()` policy (signing, mortgage, loan applications). */
@Injectable()
export class PartnerAccessStrategy implements AccessStrategy, OnModuleInit {
  readonly name = PARTNER_STRATEGY;
  private readonly guard = new PartnerGuard();

  constructor(private readonly registry: AccessStrategyRegistry) {}

  onModuleInit(): void {
    this.registry.register(this);
  }

  async authenticate(context: ExecutionContext): Promise<Partner> {
    await this.guard.canActivate(context);
    return context.switchToHttp().getRequest().user as Partner;
  }
}

/** A partner route: `Authorization: Bearer <partner key>` (contract §3); 401 otherwise. */
export const PartnerAuth = () => applyDecorators(Access({ strategy: PARTNER_STRATEGY }), ApiBearerAuth('partner'));

export const CurrentPartner = createParamDecorator(
  (_: unknown, context: ExecutionContext): Partner => context.switchToHttp().getRequest<RequestWithPrincipal>().principal as Partner,
);
