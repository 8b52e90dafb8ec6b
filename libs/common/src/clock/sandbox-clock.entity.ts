import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The one sandbox_clock row (id 1, created by the migration): the ClockState of contract §6. */
@Entity({ name: 'sandbox_clock' })
export class SandboxClockEntity {
  @PrimaryColumn({ type: 'smallint' })
  id: number;

  @Column({ name: 'sandbox_anchor', type: 'timestamptz', nullable: true })
  sandboxAnchor: Date | null;

  @Column({ name: 'real_anchor', type: 'timestamptz', nullable: true })
  realAnchor: Date | null;

  @Column({ type: 'boolean' })
  frozen: boolean;
}
