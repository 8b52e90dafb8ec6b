import { Column, Entity, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';
import { SandboxIdColumn } from '@app/common';
import type { Scope } from '../scopes';
import type { TokenKind } from './token-kinds';

/** An access token: opaque to the client, only its SHA-256 kept, bound to TPP, user, scopes and kind. */
@Entity({ name: 'psd2_access_token' })
export class Psd2AccessTokenEntity {
  /** The sandbox the row belongs to (contract §13): filled and matched by SandboxDb, never read. */
  @SandboxIdColumn()
  sandboxId?: string;

  @PrimaryColumn({ name: 'token_hash', type: 'char', length: 64 })
  tokenHash: string;

  @Column({ type: 'text' })
  kind: TokenKind;

  @Column({ name: 'tpp_id', type: 'uuid' })
  tppId: string;

  @Column({ name: 'personal_number', type: 'char', length: 12 })
  personalNumber: string;

  @Column({ type: 'text', array: true })
  scopes: Scope[];

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

/** A PSU's consent to a TPP, valid 180 days (bank §5.3); refresh stops working once it lapses. */
@Entity({ name: 'psd2_consent' })
export class Psd2ConsentEntity {
  /** The sandbox the row belongs to (contract §13): filled and matched by SandboxDb, never read. */
  @SandboxIdColumn()
  sandboxId?: string;

  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'tpp_id', type: 'uuid' })
  tppId: string;

  @Column({ name: 'personal_number', type: 'char', length: 12 })
  personalNumber: string;

  @Column({ type: 'text', array: true })
  scopes: Scope[];

  @Column({ name: 'granted_at', type: 'timestamptz' })
  grantedAt: Date;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;
}

/** A refresh token of the authorize flow: 180 days, 4 uses per Stockholm calendar day (bank §5.5). */
@Entity({ name: 'psd2_refresh_token' })
export class Psd2RefreshTokenEntity {
  /** The sandbox the row belongs to (contract §13): filled and matched by SandboxDb, never read. */
  @SandboxIdColumn()
  sandboxId?: string;

  @PrimaryColumn({ name: 'token_hash', type: 'char', length: 64 })
  tokenHash: string;

  @Column({ name: 'tpp_id', type: 'uuid' })
  tppId: string;

  @Column({ name: 'personal_number', type: 'char', length: 12 })
  personalNumber: string;

  @Column({ name: 'consent_id', type: 'uuid' })
  consentId: string;

  @Column({ name: 'issued_at', type: 'timestamptz' })
  issuedAt: Date;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;

  /** The Stockholm date of the counted uses, and how many there were that day. */
  @Column({ name: 'uses_day', type: 'date', nullable: true })
  usesDay: string | null;

  @Column({ name: 'uses_count', type: 'integer' })
  usesCount: number;

  /**
   * The SHA-256 thumbprint (hex of the DER) of the client certificate of the TLS handshake it was
   * issued in (contract §16, RFC 8705 §3); null for a token of the plain port.
   */
  @Column({ name: 'certificate_thumbprint', type: 'char', length: 64, nullable: true })
  certificateThumbprint: string | null;
}
