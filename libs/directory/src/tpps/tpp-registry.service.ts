import { Injectable } from '@nestjs/common';
import { ValidationFailed } from '@app/common';
import { reservedOrganizationIdProblem, Tpp, TppIdentity, tppIdentifier, TppSettings } from './tpp';
import { TppRepository } from './tpp.repository';

/** The TPP registry (contract §3, §8): TPPs appear on first use; admins adjust their settings. */
@Injectable()
export class TppRegistry {
  constructor(private readonly tpps: TppRepository) {}

  /** The TPP a certificate stands for, registered with default settings if it is new. */
  identify(identity: TppIdentity): Promise<Tpp> {
    return this.tpps.findOrRegister(tppIdentifier(identity));
  }

  /** Settings for the TPP with this organizationIdentifier, registering it if it is new. */
  configure(organizationId: string, settings: TppSettings): Promise<Tpp> {
    const reserved = reservedOrganizationIdProblem(organizationId);
    if (reserved) throw new ValidationFailed(reserved);
    return this.tpps.configure(organizationId, settings.nonAuthenticatedTokenLifetimeS);
  }
}
