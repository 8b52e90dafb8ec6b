import { Injectable } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import type { Partner } from './partner';

/*
 * The bearer credentials partner routes accept, as registries other libs fill: directory registers the
 * partner key, the enterprise interface its client-credentials and end-user tokens (bank §4.6;
 * contract §3). Routes read them without depending on the lib that issues them.
 */

/**
 * Turns a bearer value into the partner it stands for. The partner key is one; the enterprise
 * interface adds its client-credentials access tokens (contract §3) by registering another. The
 * request is for what a resolver knows of a value it refuses (an expired token names its holder to
 * the journal, contract §14).
 */
export type PartnerCredentialResolver = (bearer: string, request: IncomingMessage) => Promise<Partner | null>;

/** The resolvers in order of registration; the first that knows the bearer value wins. */
@Injectable()
export class PartnerCredentials {
  private readonly resolvers: PartnerCredentialResolver[] = [];

  register(resolver: PartnerCredentialResolver): void {
    this.resolvers.push(resolver);
  }

  async resolve(bearer: string, request: IncomingMessage): Promise<Partner | null> {
    for (const resolver of this.resolvers) {
      const partner = await resolver(bearer, request);
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

/** Turns a bearer value into the end user it stands for; the request as for PartnerCredentialResolver. */
export type EndUserCredentialResolver = (bearer: string, request: IncomingMessage) => Promise<EndUser | null>;

/** Resolves enterprise end-user tokens; the enterprise lib registers its resolver. */
@Injectable()
export class EndUserCredentials {
  private resolver: EndUserCredentialResolver | null = null;

  register(resolver: EndUserCredentialResolver): void {
    this.resolver = resolver;
  }

  resolve(bearer: string, request: IncomingMessage): Promise<EndUser | null> {
    return this.resolver ? this.resolver(bearer, request) : Promise.resolve(null);
  }
}
