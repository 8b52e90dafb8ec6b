import { JOURNAL_ROW_COLUMNS } from './journal-entry';

/** Bytes a batch starts with; it doubles as needed and keeps its size when reused. */
const INITIAL_BYTES = 64 * 1024;
/** A UTF-16 code unit is at most three bytes of UTF-8: room enough for a line before it is encoded. */
const MAX_UTF8_BYTES_PER_UNIT = 3;

/**
 * Journal rows waiting for their write, as PostgreSQL's COPY text (a line per row, tab-separated,
 * `\N` for null, backslash escapes) in bytes outside V8's heap, with each row's arrival.
 *
 * Why bytes (issue 19, RSS): a buffered entry lives until its batch is written, tens of
 * milliseconds under load, long enough for V8 to copy it through the young generation into the old
 * one, which then grows with garbage until a full collection. Encoded on arrival, an entry leaves
 * only garbage that dies young; a batch's memory is reused once written.
 */
export class JournalBatch {
  private bytes: Buffer;
  /** The rows in arrival order, when they were not added in it. */
  private ordered: Buffer | undefined;
  private used = 0;
  private rows = 0;
  private readonly arrivals: Float64Array;
  private readonly ends: Uint32Array;

  constructor(
    readonly capacity: number,
    initialBytes = INITIAL_BYTES,
  ) {
    this.bytes = Buffer.allocUnsafeSlow(initialBytes);
    this.arrivals = new Float64Array(capacity);
    this.ends = new Uint32Array(capacity);
  }

  get size(): number {
    return this.rows;
  }

  get full(): boolean {
    return this.rows >= this.capacity;
  }

  /** Adds a row: its arrival (any monotonic measure: microseconds) and its columns as text (null: SQL NULL) in JOURNAL_ROW_COLUMNS order. */
  add(arrival: number, values: ReadonlyArray<string | null>): void {
    if (this.full) throw new Error(`a journal batch holds at most ${this.capacity} rows`);
    const line = `${values.map(copyField).join('\t')}\n`;
    this.reserve(line.length * MAX_UTF8_BYTES_PER_UNIT);
    this.used += this.bytes.write(line, this.used);
    this.arrivals[this.rows] = arrival;
    this.ends[this.rows] = this.used;
    this.rows += 1;
  }

  /** The rows as COPY text, in arrival order (answers finish in any order; the table's arrival index is BRIN: rows written in time order keep its ranges narrow). */
  copyText(): Buffer {
    const order = this.arrivalOrder();
    if (!order) return this.bytes.subarray(0, this.used);
    if (!this.ordered || this.ordered.length < this.used) this.ordered = Buffer.allocUnsafeSlow(this.bytes.length);
    let at = 0;
    for (const row of order) at += this.bytes.copy(this.ordered, at, this.start(row), this.ends[row]);
    return this.ordered.subarray(0, at);
  }

  /** The rows in arrival order as one text array per column (null: SQL NULL), JOURNAL_ROW_COLUMNS order. */
  columns(): Array<Array<string | null>> {
    const columns = JOURNAL_ROW_COLUMNS.map((): Array<string | null> => []);
    for (const row of this.arrivalOrder() ?? this.rowIndexes()) {
      // Without the line's newline; a field never holds a raw tab (escaped).
      const fields = this.bytes.toString('utf8', this.start(row), this.ends[row] - 1).split('\t');
      fields.forEach((field, column) => columns[column].push(copyFieldValue(field)));
    }
    return columns;
  }

  /**
   * The rows split in two batches, the older half first, each in arrival order: how the writer
   * narrows a batch PostgreSQL refused down to the rows it refuses.
   */
  halves(): [JournalBatch, JournalBatch] {
    const order = this.arrivalOrder() ?? this.rowIndexes();
    const middle = Math.ceil(order.length / 2);
    return [this.copyOf(order.slice(0, middle)), this.copyOf(order.slice(middle))];
  }

  /** Empties the batch for reuse, keeping its memory. */
  clear(): void {
    this.used = 0;
    this.rows = 0;
  }

  /** A new batch of these rows, in this order, their lines copied as encoded. */
  private copyOf(rows: number[]): JournalBatch {
    const bytes = rows.reduce((sum, row) => sum + this.ends[row] - this.start(row), 0);
    const copy = new JournalBatch(Math.max(rows.length, 1), Math.max(bytes, 1));
    for (const row of rows) {
      copy.used += this.bytes.copy(copy.bytes, copy.used, this.start(row), this.ends[row]);
      copy.arrivals[copy.rows] = this.arrivals[row];
      copy.ends[copy.rows] = copy.used;
      copy.rows += 1;
    }
    return copy;
  }

  private start(row: number): number {
    return row === 0 ? 0 : this.ends[row - 1];
  }

  /** A stable order by arrival, or none when the rows were added in it (ties keep their order). */
  private arrivalOrder(): number[] | undefined {
    let sorted = true;
    for (let row = 1; row < this.rows && sorted; row++) sorted = this.arrivals[row - 1] <= this.arrivals[row];
    if (sorted) return undefined;
    return this.rowIndexes().sort((a, b) => this.arrivals[a] - this.arrivals[b] || a - b);
  }

  private rowIndexes(): number[] {
    return Array.from({ length: this.rows }, (_, row) => row);
  }

  private reserve(bytes: number): void {
    if (this.bytes.length - this.used >= bytes) return;
    let size = this.bytes.length * 2;
    while (size - this.used < bytes) size *= 2;
    const grown = Buffer.allocUnsafeSlow(size);
    this.bytes.copy(grown, 0, 0, this.used);
    this.bytes = grown;
  }
}

const COPY_SPECIAL = /[\\\t\n\r]/;
const COPY_SPECIALS = new RegExp(COPY_SPECIAL.source, 'g');
const COPY_ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };
const COPY_ESCAPED = /\\([\\tnr])/g;
const COPY_UNESCAPES: Record<string, string> = { '\\': '\\', t: '\t', n: '\n', r: '\r' };

/** A column's value in COPY text. */
function copyField(value: string | null): string {
  if (value === null) return '\\N';
  // Most values have nothing to escape: a test is cheaper than a replace.
  return COPY_SPECIAL.test(value) ? value.replace(COPY_SPECIALS, (special) => COPY_ESCAPES[special]) : value;
}

/** The inverse of copyField. */
function copyFieldValue(field: string): string | null {
  if (field === '\\N') return null;
  return field.includes('\\') ? field.replace(COPY_ESCAPED, (_, escaped: string) => COPY_UNESCAPES[escaped]) : field;
}
