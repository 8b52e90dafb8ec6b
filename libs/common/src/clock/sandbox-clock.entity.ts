import { Column, Entity, PrimaryColumn } from 'typeorm';

/** One sandbox_clock row per sandbox: the ClockState of contract §6. */
@Entity({ name: 'sandbox_clock' })
export class SandboxClockEntity {
  @PrimaryColumn({ name: 'sandbox_id', type: 'text' })
  sandboxId: string;

  @Column({ name: 'sandbox_anchor', type: 'timestamptz', nullable: true })
  sandboxAnchor: Date | null;

  @Column({ name: 'real_anchor', type: 'timestamptz', nullable: true })
  realAnchor: Date | null;

  @Column({ type: 'boolean' })
  frozen: boolean;
}
