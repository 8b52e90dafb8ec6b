import { Column, Entity, PrimaryColumn } from 'typeorm';
import { SandboxIdColumn } from '@app/common';
import type { Scope } from '../scopes';

export const START_MODES = ['AUTO_START', 'QR_CODE'] as const;
export type StartMode = (typeof START_MODES)[number];

export const AUTH_FLOWS = ['authenticate', 'authorize'] as const;
export type AuthFlow = (typeof AUTH_FLOWS)[number];

/**
 * A PSD2 authenticate or authorize operation (bank §2.1–2.3, §3.1): the TPP's view of one eid
 * authentication order, known by its pending code. Its status is the eid order's.
 */
@Entity({ name: 'psd2_authorization' })
export class Psd2AuthorizationEntity {
  /** The sandbox the row belongs to (contract §13): filled and matched by SandboxDb, never read. */
  @SandboxIdColumn()
  sandboxId?: string;

  /** SHA-256 of the pending code (hashUuidSecret): the code itself is shown once, by the start call. */
  @PrimaryColumn({ name: 'pending_code_hash', type: 'char', length: 64 })
  pendingCodeHash: string;

  @Column({ type: 'text' })
  flow: AuthFlow;

  @Column({ name: 'tpp_id', type: 'uuid' })
  tppId: string;

  @Column({ name: 'eid_order_id', type: 'uuid' })
  eidOrderId: string;

  @Column({ type: 'text', array: true })
  scopes: Scope[];

  @Column({ name: 'start_mode', type: 'text' })
  startMode: StartMode;

  @Column({ name: 'end_user_ip', type: 'text' })
  endUserIp: string;

  @Column({ name: 'psu_ip_address', type: 'text' })
  psuIpAddress: string;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  /** The last status call answered, in real time; QR_CODE mode allows one a second (bank §4.1 rule 2, contract §5). */
  @Column({ name: 'last_polled_at', type: 'timestamptz', nullable: true })
  lastPolledAt: Date | null;

  /** Set once, when the pending code is exchanged for tokens (single use). */
  @Column({ name: 'exchanged_at', type: 'timestamptz', nullable: true })
  exchangedAt: Date | null;
}
