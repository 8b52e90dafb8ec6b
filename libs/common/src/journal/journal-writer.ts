import { BeforeApplicationShutdown, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { SandboxConfig } from '../config/sandbox-config';
import { JournalBatch } from './journal-batch';
import { journalRowValues, type NewJournalEntry } from './journal-entry';
import { JournalStore } from './journal-store';

/** Entries written within this long of their request (contract §14: within 1 s). */
export const JOURNAL_FLUSH_INTERVAL_MS = 1000;
/** Rows per write (one COPY, or one INSERT on the embedded database). */
const BATCH_SIZE = 500;
/** Written batches kept for reuse: their memory is taken once, not for every batch. */
const SPARE_BATCHES = 2;
/** A journal that cannot keep up (the database down) loses entries rather than memory. */
const MAX_BUFFERED = 20_000;

/** What /health reports of the journal. */
export interface JournalHealth {
  recording: boolean;
  buffered: number;
  written: number;
  /** Entries lost to a failed write or a full buffer (each logged at warn), or to a failed redaction. */
  lost: number;
  failed_writes: number;
  /** Entries dropped because redacting them failed: never stored unredacted (contract §14). */
  redaction_failed: number;
}

/**
 * The journal's buffer (contract §14): the edge hands it entries, a timer writes them in batches at
 * least every second, and the app's shutdown writes the rest. A failed write is logged at warn and
 * counted, and its entries are dropped: the journal is diagnostics, and a request never waits for it.
 */
@Injectable()
export class JournalWriter implements OnModuleInit, BeforeApplicationShutdown {
  private readonly logger = new Logger(JournalWriter.name);
  /** The batch being filled, then the full ones waiting for their write, oldest first. */
  private filling = new JournalBatch(BATCH_SIZE);
  private readonly waiting: JournalBatch[] = [];
  private readonly spares: JournalBatch[] = [];
  private buffered = 0;
  private writing: Promise<void> = Promise.resolve();
  /** A write is queued or running: it takes whatever is buffered meanwhile. */
  private flushing = false;
  private timer: NodeJS.Timeout | undefined;
  private written = 0;
  private lost = 0;
  private failedWrites = 0;
  private redactionFailed = 0;

  constructor(
    private readonly store: JournalStore,
    private readonly config: SandboxConfig,
  ) {}

  onModuleInit(): void {
    if (!this.config.journal) return;
    this.timer = setInterval(() => void this.flush(), JOURNAL_FLUSH_INTERVAL_MS);
    this.timer.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }

  record(entry: NewJournalEntry): void {
    if (this.buffered >= MAX_BUFFERED) {
      this.lose(1, 'journal buffer full: entry dropped');
      return;
    }
    this.filling.add(entry.arrivalMicros, journalRowValues(entry));
    this.buffered += 1;
    if (!this.filling.full) return;
    this.seal();
    // A full batch goes now rather than at the next tick of the timer: under load the buffer stays
    // small, and entries are written well within their second.
    if (!this.flushing) void this.flush();
  }

  /** Writes everything recorded so far (after any write in progress); never rejects. */
  flush(): Promise<void> {
    this.flushing = true;
    this.writing = this.writing.then(() => this.writeBuffered());
    return this.writing;
  }

  health(): JournalHealth {
    return {
      recording: this.config.journal,
      buffered: this.buffered,
      written: this.written,
      lost: this.lost,
      failed_writes: this.failedWrites,
      redaction_failed: this.redactionFailed,
    };
  }

  private async writeBuffered(): Promise<void> {
    if (this.filling.size > 0) this.seal();
    for (let batch = this.waiting.shift(); batch; batch = this.waiting.shift()) {
      await this.write(batch);
      this.buffered -= batch.size;
      batch.clear();
      if (this.spares.length < SPARE_BATCHES) this.spares.push(batch);
      // Entries recorded while this batch was written go in the same pass.
      if (this.waiting.length === 0 && this.filling.size > 0) this.seal();
    }
    this.flushing = false;
  }

  /**
   * Writes a batch. A batch mixes every sandbox's entries (contract §13: nothing crosses sandboxes),
   * so when PostgreSQL refuses one of its rows (a data error: a value it cannot read) the batch is
   * halved until the refused rows are alone, and only they are lost: a few more writes for one bad
   * row, and none unless a write failed. Any other failure (the database away) loses the batch.
   */
  private async write(batch: JournalBatch): Promise<void> {
    try {
      this.written += await this.store.insert(batch);
    } catch (error) {
      if (batch.size > 1 && isRowDataError(error)) {
        for (const half of batch.halves()) await this.write(half);
        return;
      }
      this.failedWrites += 1;
      this.lose(batch.size, 'journal write failed: entries dropped', error);
    }
  }

  /** Queues the batch being filled for its write and starts another. */
  private seal(): void {
    this.waiting.push(this.filling);
    this.filling = this.spares.pop() ?? new JournalBatch(BATCH_SIZE);
  }

  /**
   * Counts an entry the edge dropped because redacting it failed (contract §14: never kept
   * unredacted). Logged by the error's type only: its message may quote the value being redacted.
   */
  dropUnredacted(error: unknown): void {
    this.redactionFailed += 1;
    this.lost += 1;
    this.logger.warn({ error_type: error instanceof Error ? error.constructor.name : typeof error }, 'journal entry dropped: its redaction failed');
  }

  /** Counts and logs lost entries (also called by the edge when an entry cannot be built). */
  lose(entries: number, message: string, error?: unknown): void {
    this.lost += entries;
    this.logger.warn({ err: error, entries }, message);
  }
}

/** SQLSTATE classes of a value a row holds (22 data exception, 23 integrity constraint), not of the connection or the table. */
const ROW_DATA_ERROR_CLASSES = ['22', '23'];

function isRowDataError(error: unknown): boolean {
  const { code, driverError } = error as { code?: unknown; driverError?: { code?: unknown } };
  const sqlState = typeof code === 'string' ? code : driverError?.code;
  return typeof sqlState === 'string' && ROW_DATA_ERROR_CLASSES.includes(sqlState.slice(0, 2));
}
