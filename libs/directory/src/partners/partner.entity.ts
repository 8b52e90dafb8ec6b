import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { SandboxIdColumn } from '@app/common';

/** A partner of the signing, mortgage and enterprise interfaces (contract §3, §8). */
@Entity({ name: 'partner' })
export class PartnerEntity {
  /** The sandbox the row belongs to (contract §13): filled and matched by SandboxDb, never read. */
  @SandboxIdColumn()
  sandboxId?: string;

  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'text' })
  name: string;

  /** SHA-256 (hex) of the partner's api key; the key itself is shown once, when it is issued. */
  @Column({ name: 'api_key_hash', type: 'char', length: 64, unique: true })
  apiKeyHash: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
