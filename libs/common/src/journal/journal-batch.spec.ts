import fc from 'fast-check';
import { JournalBatch } from './journal-batch';
import { JOURNAL_ROW_COLUMNS } from './journal-entry';

/** Text as requests bring it: COPY's special characters, backslash sequences, non-ASCII, astral characters. */
const text = fc.oneof(
  fc.string({ unit: fc.constantFrom('a', 'Å', '\\', '\t', '\n', '\r', 'N', 't', '€', '😀', ' '), maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.constantFrom('\\N', 'N', '', '\\\\N'),
);
const row = fc.record({
  arrivedAtMs: fc.integer({ min: 0, max: 20 }),
  values: fc.array(fc.option(text, { nil: null }), { minLength: JOURNAL_ROW_COLUMNS.length, maxLength: JOURNAL_ROW_COLUMNS.length }),
});

/** The rows in arrival order, ties in the order they were added. */
function inArrivalOrder<T extends { arrivedAtMs: number }>(rows: readonly T[]): T[] {
  return rows.map((value, index) => ({ value, index })).sort((a, b) => a.value.arrivedAtMs - b.value.arrivedAtMs || a.index - b.index).map(({ value }) => value);
}

/** PostgreSQL's reading of COPY text: lines, tab-separated fields, `\N` null, backslash escapes. */
function readCopyText(bytes: Buffer): Array<Array<string | null>> {
  const unescapes: Record<string, string> = { '\\': '\\', t: '\t', n: '\n', r: '\r' };
  return bytes
    .toString('utf8')
    .split('\n')
    .slice(0, -1)
    .map((line) => line.split('\t').map((field) => (field === '\\N' ? null : field.replace(/\\(.)/g, (_, escaped: string) => unescapes[escaped]))));
}

describe('JournalBatch (contract §14: entries are written in arrival order; issue 19: buffered outside the heap)', () => {
  it('gives back every row, in arrival order, as COPY text and as columns', () => {
    fc.assert(
      fc.property(fc.array(row, { minLength: 1, maxLength: 30 }), (rows) => {
        const batch = new JournalBatch(rows.length);
        for (const { arrivedAtMs, values } of rows) batch.add(arrivedAtMs, values);
        const expected = inArrivalOrder(rows).map(({ values }) => values);
        expect(batch.size).toBe(rows.length);
        expect(batch.full).toBe(true);
        expect(readCopyText(batch.copyText())).toEqual(expected);
        const columns = batch.columns();
        expect(columns).toHaveLength(JOURNAL_ROW_COLUMNS.length);
        expect(expected.map((_, index) => columns.map((column) => column[index]))).toEqual(expected);
      }),
    );
  });

  it('halves() splits the rows, older half first, each in arrival order: together every row once (a refused batch is narrowed down, contract §13)', () => {
    fc.assert(
      fc.property(fc.array(row, { minLength: 1, maxLength: 30 }), (rows) => {
        const batch = new JournalBatch(rows.length);
        for (const { arrivedAtMs, values } of rows) batch.add(arrivedAtMs, values);
        const [older, newer] = batch.halves();
        expect(older.size).toBe(Math.ceil(rows.length / 2));
        expect(older.size + newer.size).toBe(rows.length);
        expect([...readCopyText(older.copyText()), ...readCopyText(newer.copyText())]).toEqual(inArrivalOrder(rows).map(({ values }) => values));
        expect(readCopyText(batch.copyText())).toEqual(inArrivalOrder(rows).map(({ values }) => values));
      }),
    );
  });

  it('grows past its first memory for large rows and is reused empty after clear()', () => {
    const batch = new JournalBatch(3);
    const large = 'x'.repeat(100_000);
    const values = (body: string) => JOURNAL_ROW_COLUMNS.map((column) => (column === 'response' ? body : column));
    batch.add(2, values(large));
    batch.add(1, values('€'.repeat(50_000)));
    expect(batch.columns()[JOURNAL_ROW_COLUMNS.indexOf('response')]).toEqual(['€'.repeat(50_000), large]);
    batch.clear();
    expect(batch.size).toBe(0);
    batch.add(5, values('small'));
    expect(readCopyText(batch.copyText())).toEqual([values('small')]);
  });

  it('refuses a row beyond its capacity', () => {
    const batch = new JournalBatch(1);
    batch.add(0, JOURNAL_ROW_COLUMNS.map(() => null));
    expect(() => batch.add(0, JOURNAL_ROW_COLUMNS.map(() => null))).toThrow(/at most 1 rows/);
  });
});
