import { Injectable } from '@nestjs/common';
import { type DueWork, returnedRows, SandboxDb } from '@app/common';
import { LoanApplicationEntity } from './loan-application.entity';
import { LOAN_APPLICATION_LIFECYCLE, type LoanApplicationStatus } from './loan-application-status';

export interface Supplement {
  supplementId: string;
  documentType: string;
  fileName: string;
  contentType: string;
  content: Buffer;
  sha256: string;
  receivedAt: Date;
}

@Injectable()
export class LoanApplicationRepository {
  private readonly rows = this.db.rows(LoanApplicationEntity);

  constructor(private readonly db: SandboxDb) {}

  async insert(application: LoanApplicationEntity): Promise<void> {
    await this.db.insert(LoanApplicationEntity, application);
  }

  async find(id: string): Promise<LoanApplicationEntity | null> {
    const result: unknown = await this.db.query(`SELECT ${this.rows.select()} FROM loan_application WHERE sandbox_id = $1 AND id = $2`, [id]);
    return this.rows.first(result);
  }

  async lock(id: string): Promise<LoanApplicationEntity | null> {
    const result: unknown = await this.db.query(`SELECT ${this.rows.select()} FROM loan_application WHERE sandbox_id = $1 AND id = $2 FOR UPDATE`, [id]);
    return this.rows.first(result);
  }

  /** Conditional on the lifecycle table; false when another request or instance moved it first. */
  async move(
    id: string,
    to: LoanApplicationStatus,
    changes: { processingAt?: Date; decidedAt?: Date; customerServiceReference?: string },
  ): Promise<boolean> {
    const rows = returnedRows(
      await this.db.query(
        `UPDATE loan_application
            SET status = $3, processing_at = COALESCE($5, processing_at), decided_at = COALESCE($6, decided_at),
                customer_service_reference = COALESCE($7, customer_service_reference)
          WHERE sandbox_id = $1 AND id = $2 AND status = ANY($4::text[])
          RETURNING id`,
        [id, to, LOAN_APPLICATION_LIFECYCLE.before(to), changes.processingAt ?? null, changes.decidedAt ?? null, changes.customerServiceReference ?? null],
      ),
    );
    return rows.length === 1;
  }

  /**
   * The sandboxes with a loan application PROCESSING for `delayS` of its own sandbox time: the
   * decision job's scheduled pass over every sandbox (contract §13 Time and jobs).
   */
  dueForDecisionWork(delayS: number): DueWork {
    return {
      sql: `SELECT a.sandbox_id FROM loan_application a JOIN sandbox_now n ON n.sandbox_id = a.sandbox_id
             WHERE a.status = 'PROCESSING' AND a.processing_at <= n.now - make_interval(secs => $1)`,
      parameters: [delayS],
    };
  }

  async listDueForDecision(before: Date): Promise<LoanApplicationEntity[]> {
    const result: unknown = await this.db.query(
      `SELECT ${this.rows.select()} FROM loan_application WHERE sandbox_id = $1 AND status = 'PROCESSING' AND processing_at <= $2 ORDER BY processing_at`,
      [before],
    );
    return this.rows.all(result);
  }

  /** Creates or replaces a supplementary document; true when it was new. */
  async putSupplement(applicationId: string, supplement: Supplement): Promise<boolean> {
    const rows: Array<{ inserted: boolean }> = await this.db.query(
      `INSERT INTO loan_application_supplement (sandbox_id, loan_application_id, supplement_id, document_type, file_name, content_type, content, size_bytes, sha256, received_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
       ON CONFLICT (sandbox_id, loan_application_id, supplement_id) DO UPDATE
          SET document_type = EXCLUDED.document_type, file_name = EXCLUDED.file_name, content_type = EXCLUDED.content_type,
              content = EXCLUDED.content, size_bytes = EXCLUDED.size_bytes, sha256 = EXCLUDED.sha256, received_at = EXCLUDED.received_at
       RETURNING (xmax = 0) AS inserted`,
      [
        applicationId,
        supplement.supplementId,
        supplement.documentType,
        supplement.fileName,
        supplement.contentType,
        supplement.content,
        supplement.content.length,
        supplement.sha256,
        supplement.receivedAt,
      ],
    );
    return rows[0].inserted;
  }
}
