import { Injectable } from '@nestjs/common';
import type { SigningProcess } from './participant';

/** What the owning process says of a new signing start for one of its participants. */
export type SigningAdmission =
  /** The process takes signatures now. */
  | { verdict: 'open' }
  /** It exists, but its state takes no signature (e.g. expired, decided): 409 INVALID_STATE (contract §2). */
  | { verdict: 'closed'; why: string }
  /** The caller may no longer see it (e.g. a withdrawn loan application): 404, as an unknown participant (contract §2). */
  | { verdict: 'gone' };

export type SigningAdmissionCheck = (process: SigningProcess) => Promise<SigningAdmission>;

/**
 * The seam from signing to the processes that own participants, asked before a signing starts: only
 * the process knows whether its state still takes signatures. A kind without a check takes them.
 */
@Injectable()
export class SigningAdmissions {
  private readonly checks = new Map<string, SigningAdmissionCheck>();

  /** Each kind of process registers its check once, in onModuleInit. */
  onSigningStart(processKind: string, check: SigningAdmissionCheck): void {
    if (this.checks.has(processKind)) throw new Error(`A signing start check for ${processKind} is already registered`);
    this.checks.set(processKind, check);
  }

  async admit(process: SigningProcess): Promise<SigningAdmission> {
    return (await this.checks.get(process.kind)?.(process)) ?? { verdict: 'open' };
  }
}
