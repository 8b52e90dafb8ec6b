import { Injectable } from '@nestjs/common';
import type { Partner } from './partner';

/*
 * The bearer credentials partner routes accept, as registries other libs fill: directory registers the
 * partner key, the enterprise interface its client-credentials and end-user tokens (bank §4.6;
 * contract §3). Routes read them without depending on the lib that issues them.
 */

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
