import { Injectable } from '@nestjs/common';
import { randomInt } from 'node:crypto';
import { type PersonalNumber, PersonalNumberReader, ValidationFailed } from '@app/common';
import { type CreditDecision, UserService } from '@app/directory';
import type { Participant } from '@app/signing';
import { formatUtcSeconds } from '@app/common';
import type { ApplicantDto, StatusParticipantDto } from './pre-approval/pre-approval.dto';
import type { Applicant } from './pre-approval/pre-approval.entity';

/** Applicants of pre-approvals and loan applications: 1 or 2 known sandbox users (contract §9). */
@Injectable()
export class Applicants {
  constructor(
    private readonly users: UserService,
    private readonly personalNumbers: PersonalNumberReader,
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

  /** The applicants' forced credit decisions (sandbox users' credit_decision). */
  async forcedDecisions(applicants: Applicant[]): Promise<Array<CreditDecision | null>> {
    const users = await Promise.all(applicants.map((a) => this.users.find(a.personal_number as PersonalNumber)));
    return users.map((user) => user?.creditDecision ?? null);
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
