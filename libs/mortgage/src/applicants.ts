import { Injectable } from '@nestjs/common';
import { randomInt } from 'node:crypto';
import { formatUtcSeconds, type PersonalNumber, PersonalNumberReader, ValidationFailed } from '@app/common';
import { type CreditDecision, UserService } from '@app/directory';
import {
  type Participant,
  type ParticipantSigned,
  ParticipantService,
  type SigningAdmissionCheck,
  SigningAdmissions,
  SigningCompletions,
  type SigningProcess,
} from '@app/signing';
import { decideCredit } from './pre-approval/credit-decision';
import type { ApplicantDto, StatusParticipantDto } from './pre-approval/pre-approval.dto';
import type { Applicant } from './pre-approval/pre-approval.entity';

/**
 * Applicants of pre-approvals and loan applications (contract §9): 1 or 2 known sandbox users, who
 * sign the process as its participants (libs/signing) and whose users may force its credit decision.
 */
@Injectable()
export class Applicants {
  constructor(
    private readonly users: UserService,
    private readonly personalNumbers: PersonalNumberReader,
    private readonly participants: ParticipantService,
    private readonly completions: SigningCompletions,
    private readonly admissions: SigningAdmissions,
  ) {}

  /** The applicants with 12-digit personal numbers; 400 naming the first unknown or repeated one. */
  async read(applicants: ApplicantDto[]): Promise<Applicant[]> {
    const read: Applicant[] = [];
    for (const [i, applicant] of applicants.entries()) {
      const field = `applicants.${i}.personal_number`;
      const personalNumber = this.personalNumbers.read(applicant.personal_number, field);
      if (!(await this.users.find(personalNumber))) throw new ValidationFailed(`${field} ${personalNumber} is not a sandbox user`);
      if (read.some((a) => a.personal_number === personalNumber)) throw new ValidationFailed(`${field} names the same person twice`);
      read.push({ personal_number: personalNumber, yearly_income: applicant.yearly_income });
    }
    return read;
  }

  /** Contract §9: the credit decision on this debt, unless an applicant's user forces one. */
  async decide(debt: number, applicants: Applicant[]): Promise<CreditDecision> {
    const users = await Promise.all(applicants.map((a) => this.users.find(a.personal_number as PersonalNumber)));
    return decideCredit({ debt, incomes: applicants.map((a) => a.yearly_income), forced: users.map((user) => user?.creditDecision ?? null) });
  }

  /** Registers the applicants as the process's signing participants, the main applicant first. */
  registerSigners(process: SigningProcess, applicants: Applicant[]): Promise<Participant[]> {
    return this.participants.register(process, applicants.map((a) => a.personal_number));
  }

  signers(process: Omit<SigningProcess, 'partnerId'>): Promise<Participant[]> {
    return this.participants.list(process);
  }

  /** Sandbox only: the participant signs now (no eid order), as PUT …/sign-bankid/… simulates. */
  signNow(participantId: string, process: SigningProcess): Promise<void> {
    return this.participants.signNow(participantId, process);
  }

  /** Calls `handler` in the signing's transaction whenever an applicant of a process of this kind signs. */
  onSigned(kind: string, handler: (event: ParticipantSigned) => Promise<void>): void {
    this.completions.onParticipantSigned(kind, handler);
  }

  /** Asks `check` before an applicant of a process of this kind starts a signing (start, start/phone). */
  onSigningStart(kind: string, check: SigningAdmissionCheck): void {
    this.admissions.onSigningStart(kind, check);
  }
}

/** Bank §2.5, §2.6 signing_process.participants[]: signed_at in UTC to the second (contract §9). */
export function toStatusParticipants(participants: Participant[]): StatusParticipantDto[] {
  return participants.map((p) => ({
    personal_number: p.personalNumber,
    id: p.id,
    signed: p.signedAt !== null,
    ...(p.signedAt ? { signed_at: formatUtcSeconds(p.signedAt) } : {}),
  }));
}

const REFERENCE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** What the bank's customer service asks for on the phone, e.g. PA-7K2M9Q4X (bank §2.6). */
export function customerServiceReference(prefix: 'PA' | 'LA'): string {
  return `${prefix}-${Array.from({ length: 8 }, () => REFERENCE_ALPHABET[randomInt(REFERENCE_ALPHABET.length)]).join('')}`;
}
