import { Column, Entity, PrimaryColumn } from 'typeorm';
import { SandboxIdColumn } from '@app/common';
import type { StartKind } from './signing-rules';

/** The contract §11 signing state of one personal number, shared by every partner. */
@Entity({ name: 'signing_person' })
export class SigningPersonEntity {
  /** The sandbox the row belongs to (contract §13): filled and matched by SandboxDb, never read. */
  @SandboxIdColumn()
  sandboxId?: string;

  @PrimaryColumn({ name: 'personal_number', type: 'char', length: 12 })
  personalNumber: string;

  @Column({ name: 'order_id', type: 'uuid', nullable: true })
  orderId: string | null;

  @Column({ name: 'order_kind', type: 'text', nullable: true })
  orderKind: StartKind | null;

  @Column({ name: 'order_ip', type: 'text', nullable: true })
  orderIp: string | null;

  @Column({ name: 'retry_armed', type: 'boolean' })
  retryArmed: boolean;

  @Column({ name: 'blocked_until', type: 'timestamptz', nullable: true })
  blockedUntil: Date | null;
}
