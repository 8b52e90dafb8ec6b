import { Column, Entity, PrimaryColumn } from 'typeorm';
import { SandboxIdColumn } from '@app/common';

export type EnterpriseTokenKind = 'client_credentials' | 'end_user';

/** An enterprise token (bank §4.6): only its SHA-256 kept, bound to the partner, the user (end_user) and scopes. */
@Entity({ name: 'enterprise_token' })
export class EnterpriseTokenEntity {
  /** The sandbox the row belongs to (contract §13): filled and matched by SandboxDb, never read. */
  @SandboxIdColumn()
  sandboxId?: string;

  @PrimaryColumn({ name: 'token_hash', type: 'char', length: 64 })
  tokenHash: string;

  @Column({ type: 'text' })
  kind: EnterpriseTokenKind;

  @Column({ name: 'partner_id', type: 'uuid' })
  partnerId: string;

  @Column({ name: 'personal_number', type: 'char', length: 12, nullable: true })
  personalNumber: string | null;

  @Column({ type: 'text', array: true })
  scopes: string[];

  @Column({ name: 'issued_at', type: 'timestamptz' })
  issuedAt: Date;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;

  /**
   * The SHA-256 thumbprint (hex of the DER) of the client certificate of the TLS handshake it was
   * issued in (contract §16, RFC 8705 §3); null for a token of the plain port.
   */
  @Column({ name: 'certificate_thumbprint', type: 'char', length: 64, nullable: true })
  certificateThumbprint: string | null;
}

/** A pending end-user authorization, known by its pending code's SHA-256 (hashUuidSecret). */
@Entity({ name: 'enterprise_authorization' })
export class EnterpriseAuthorizationEntity {
  /** The sandbox the row belongs to (contract §13): filled and matched by SandboxDb, never read. */
  @SandboxIdColumn()
  sandboxId?: string;

  @PrimaryColumn({ name: 'pending_code_hash', type: 'char', length: 64 })
  pendingCodeHash: string;

  @Column({ name: 'partner_id', type: 'uuid' })
  partnerId: string;

  @Column({ name: 'client_id', type: 'text' })
  clientId: string;

  @Column({ name: 'personal_number', type: 'char', length: 12 })
  personalNumber: string;

  @Column({ type: 'text', array: true })
  scopes: string[];

  @Column({ name: 'autostart_token_hash', type: 'char', length: 64 })
  autostartTokenHash: string;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'exchanged_at', type: 'timestamptz', nullable: true })
  exchangedAt: Date | null;
}
