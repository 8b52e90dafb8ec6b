import { Column, Entity, PrimaryColumn } from 'typeorm';
import { SandboxIdColumn } from '@app/common';
import type { StartKind } from '../session/signing-rules';

/**
 * A person who signs in a partner's signing process (a pre-approval or a loan application, bank
 * §2.5, §2.6). Its id is the participant_id of the signing interface.
 */
@Entity({ name: 'signing_participant' })
export class ParticipantEntity {
  /** The sandbox the row belongs to (contract §13): filled and matched by SandboxDb, never read. */
  @SandboxIdColumn()
  sandboxId?: string;

  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'partner_id', type: 'uuid' })
  partnerId: string;

  /** Which kind of process owns it, e.g. `pre_approval`; the owner listens for completions. */
  @Column({ name: 'process_kind', type: 'text' })
  processKind: string;

  @Column({ name: 'process_id', type: 'uuid' })
  processId: string;

  @Column({ name: 'personal_number', type: 'char', length: 12 })
  personalNumber: string;

  /** The eid order of the latest start for this participant. */
  @Column({ name: 'current_order_id', type: 'uuid', nullable: true })
  currentOrderId: string | null;

  @Column({ name: 'current_order_kind', type: 'text', nullable: true })
  currentOrderKind: StartKind | null;

  @Column({ name: 'signed_at', type: 'timestamptz', nullable: true })
  signedAt: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
