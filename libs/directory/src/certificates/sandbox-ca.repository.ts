import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { returnedRows } from '@app/common';
import type { SandboxCaPem } from './sandbox-ca';

/**
 * The service's one sandbox CA and the serials it issued (contract §16): the service's, shared by
 * every sandbox, so not reached through SandboxDb. Revocations are per sandbox (CertificateRevocations).
 */
@Injectable()
export class SandboxCaRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * The CA, created on first start: every instance inserts its candidate and the first one wins
   * (ON CONFLICT DO NOTHING), then all read the one row, so instances sharing a database share a CA.
   */
  async findOrCreate(create: () => Promise<SandboxCaPem>): Promise<SandboxCaPem> {
    const existing = await this.find();
    if (existing) return existing;
    const candidate = await create();
    await this.dataSource.query(`INSERT INTO sandbox_ca (id, certificate_pem, private_key_pem) VALUES (1, $1, $2) ON CONFLICT (id) DO NOTHING`, [
      candidate.certificatePem,
      candidate.privateKeyPem,
    ]);
    const stored = await this.find();
    if (!stored) throw new Error('The sandbox CA row is missing right after its insert');
    return stored;
  }

  async recordIssued(certificate: { serial: string; organizationId: string; notBefore: Date; notAfter: Date }): Promise<void> {
    await this.dataSource.query(`INSERT INTO issued_certificate (serial, organization_id, not_before, not_after) VALUES ($1, $2, $3, $4)`, [
      certificate.serial,
      certificate.organizationId,
      certificate.notBefore,
      certificate.notAfter,
    ]);
  }

  async isIssued(serial: string): Promise<boolean> {
    return returnedRows(await this.dataSource.query(`SELECT 1 FROM issued_certificate WHERE serial = $1`, [serial])).length > 0;
  }

  private async find(): Promise<SandboxCaPem | null> {
    const rows = returnedRows<{ certificate_pem: string; private_key_pem: string }>(
      await this.dataSource.query(`SELECT certificate_pem, private_key_pem FROM sandbox_ca WHERE id = 1`),
    );
    return rows[0] ? { certificatePem: rows[0].certificate_pem, privateKeyPem: rows[0].private_key_pem } : null;
  }
}
