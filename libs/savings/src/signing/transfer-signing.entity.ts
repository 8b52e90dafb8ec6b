import { Column, Entity, PrimaryColumn } from 'typeorm';
import { SandboxIdColumn } from '@app/common';

/** An eid signing of transfers and recurring transfers (bank §4.2 rule 3, §4.3; contract §10). */
@Entity({ name: 'transfer_signing' })
export class TransferSigningEntity {
  /** The sandbox the row belongs to (contract §13): filled and matched by SandboxDb, never read. */
  @SandboxIdColumn()
  sandboxId?: string;

  @PrimaryColumn({ name: 'signing_id', type: 'uuid' })
  signingId: string;

  @Column({ name: 'tpp_id', type: 'uuid' })
  tppId: string;

  @Column({ name: 'personal_number', type: 'char', length: 12 })
  personalNumber: string;

  @Column({ name: 'eid_order_id', type: 'uuid' })
  eidOrderId: string;

  /** Transfers and recurring transfers alike, by reference_id. */
  @Column({ name: 'reference_ids', type: 'uuid', array: true })
  referenceIds: string[];

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  /** When the signature was applied to the transfers (once). */
  @Column({ name: 'applied_at', type: 'timestamptz', nullable: true })
  appliedAt: Date | null;
}
