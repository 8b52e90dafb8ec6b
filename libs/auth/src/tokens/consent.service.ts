import { Injectable } from '@nestjs/common';
import { SandboxDb } from '@app/common';
import { Psd2AuthorizationRepository } from '../authorization/psd2-authorization.repository';
import { TokenRepository } from './token.repository';

/** A user's PSD2 grants as a whole: consents, the tokens issued under them, and authentications on the way to them. */
@Injectable()
export class ConsentService {
  constructor(
    private readonly db: SandboxDb,
    private readonly tokens: TokenRepository,
    private readonly authorizations: Psd2AuthorizationRepository,
  ) {}

  /**
   * Contract §8, a user seeded again is as if new: every consent of the user goes with its refresh
   * and access tokens (any TPP's), and every pending code of an authentication by the user, so
   * nothing granted or begun before grants anything after. One transaction (the caller's, if open).
   * This instance and others may still hold the user's access tokens in memory: the caller moves
   * the sandbox to its next generation, which drops them (SandboxRegistry.renewGeneration).
   */
  forgetUser(personalNumber: string): Promise<void> {
    return this.db.transaction(async () => {
      await this.authorizations.deleteOfSubject(personalNumber);
      await this.tokens.deleteOf(personalNumber);
    });
  }
}
