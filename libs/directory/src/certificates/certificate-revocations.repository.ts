import { Injectable } from '@nestjs/common';
import { returnedRows, SandboxDb } from '@app/common';

/** Which sandbox-CA certificates the context's sandbox revoked (contract §16); a reset takes them (ON DELETE CASCADE). */
@Injectable()
export class CertificateRevocationsRepository {
  constructor(private readonly db: SandboxDb) {}

  /** Idempotent: revoking a revoked certificate keeps its first revocation. */
  async revoke(serial: string, at: Date): Promise<void> {
    await this.db.query(`INSERT INTO certificate_revocation (sandbox_id, serial, revoked_at) VALUES ($1, $2, $3) ON CONFLICT (sandbox_id, serial) DO NOTHING`, [serial, at]);
  }

  async revokedSerials(): Promise<Set<string>> {
    const rows = returnedRows<{ serial: string }>(await this.db.query(`SELECT serial FROM certificate_revocation WHERE sandbox_id = $1`));
    return new Set(rows.map((row) => row.serial));
  }
}
