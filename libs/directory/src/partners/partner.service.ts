import { Injectable } from '@nestjs/common';
import { hashSecret, newSecret, SandboxCache, SandboxClock } from '@app/common';
import { PartnerKeyTaken } from '../directory.errors';
import { IssuedPartner, Partner } from './partner';
import { PartnerRepository } from './partner.repository';

/** Partners and their api keys (contract §8): keys are stored as SHA-256 only. */
@Injectable()
export class PartnerService {
  /**
   * Partners by key hash, per sandbox and generation (the same key is legal in two sandboxes). A key
   * never moves to another partner and partners are only removed with their sandbox (a new
   * generation), so every instance may remember what it has looked up: partner calls then cost no
   * query for the caller.
   */
  private readonly known: SandboxCache<Partner>;

  constructor(
    private readonly partners: PartnerRepository,
    clock: SandboxClock,
  ) {
    this.known = new SandboxCache(clock);
  }

  /** A new partner with the given key (a partner's CI may want a known value) or a random one. */
  async register(name: string, apiKey: string | undefined): Promise<IssuedPartner> {
    const key = apiKey ?? newSecret();
    const partner = await this.partners.insert(name, hashSecret(key));
    if (!partner) throw new PartnerKeyTaken();
    return { ...partner, apiKey: key };
  }

  /**
   * The partner holding `apiKey`, registering it under `name` if none does (fixtures and the demo
   * partner are loaded again on every start without creating duplicates).
   */
  async ensure(name: string, apiKey: string): Promise<IssuedPartner> {
    return { ...(await this.ensureHashed(name, hashSecret(apiKey))), apiKey };
  }

  /** As `ensure`, from the key's stored hash: a sandbox's reset recreates its partners with their keys (contract §13). */
  async ensureHashed(name: string, apiKeyHash: string): Promise<Partner> {
    const partner = (await this.partners.insert(name, apiKeyHash)) ?? (await this.partners.findByKeyHash(apiKeyHash));
    if (!partner) throw new PartnerKeyTaken();
    return partner;
  }

  /** The partner a presented key belongs to (looked up by its hash), or null. */
  async authenticate(apiKey: string): Promise<Partner | null> {
    const hash = hashSecret(apiKey);
    const cached = this.known.lookup(hash);
    if (cached) return cached;
    const partner = await this.partners.findByKeyHash(hash);
    if (partner) this.known.remember(hash, partner);
    return partner;
  }
}
