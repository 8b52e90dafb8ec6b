import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { SandboxIdColumn } from '@app/common';

/** Default lifetime of a non-authenticated token (bank §4.1, §8: 1800 s, per TPP). */
export const DEFAULT_NON_AUTHENTICATED_TOKEN_LIFETIME_S = 1800;

/**
 * A TPP known to the sandbox, identified by its certificate's organizationIdentifier or, without
 * one, by the certificate's SHA-256 fingerprint (contract §3). Registered on first use.
 */
@Entity({ name: 'tpp' })
export class TppEntity {
  /** The sandbox the row belongs to (contract §13): filled and matched by SandboxDb, never read. */
  @SandboxIdColumn()
  sandboxId?: string;

  @PrimaryGeneratedColumn('uuid')
  id: string;

  /** The organizationIdentifier, or `sha256:<fingerprint>`. */
  @Column({ type: 'text', unique: true })
  identifier: string;

  @Column({ name: 'non_authenticated_token_lifetime_s', type: 'integer' })
  nonAuthenticatedTokenLifetimeS: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
