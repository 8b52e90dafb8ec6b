import { Column, CreateDateColumn, DataSource, Entity, PrimaryColumn } from 'typeorm';
import { isSandboxScoped } from '../sandbox/sandbox-db';
import { entityRows } from './entity-rows';

@Entity({ name: 'sample' })
class SampleEntity {
  @PrimaryColumn({ name: 'sample_id', type: 'uuid' })
  sampleId: string;

  @Column({ name: 'owner_personal_number', type: 'char', length: 12 })
  ownerPersonalNumber: string;

  @Column({ type: 'numeric', precision: 18, scale: 2 })
  amount: string;

  @Column({ name: 'loan_amount', type: 'bigint', nullable: true })
  loanAmount: string | null;

  @Column({ name: 'transfer_date', type: 'date' })
  transferDate: string;

  @Column({ name: 'end_date', type: 'date', nullable: true })
  endDate: string | null;

  @Column({ name: 'signed_at', type: 'timestamptz', nullable: true })
  signedAt: Date | null;

  @Column({ type: 'integer' })
  version: number;

  @Column({ type: 'text', array: true })
  scopes: string[];

  @Column({ type: 'jsonb' })
  offer: { rate: string };

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  get isSigned(): boolean {
    return this.signedAt !== null;
  }
}

/** A column the unquoted select list could not name. */
@Entity({ name: 'odd' })
class OddEntity {
  @PrimaryColumn({ name: 'OddId', type: 'uuid' })
  oddId: string;
}

/** Entity metadata as the running service has it, without a database: a data source never connected. */
async function metadataOnly(): Promise<DataSource> {
  const dataSource = new DataSource({ type: 'postgres', entities: [SampleEntity, OddEntity] });
  await dataSource['buildMetadatas']();
  return dataSource;
}

const signedAt = new Date('2026-11-24T09:00:00Z');
const createdAt = new Date('2026-11-23T08:00:00Z');
const row = {
  sample_id: '0b8f1f8e-6d5a-4a0e-9d59-0c1f4b0c2a11',
  owner_personal_number: '191212121212',
  amount: '100.50',
  loan_amount: '2500000',
  transfer_date: '2026-11-24',
  end_date: null,
  signed_at: signedAt,
  version: 3,
  scopes: ['AIS', 'PIS'],
  offer: { rate: '3.45' },
  created_at: createdAt,
};

describe('entityRows', () => {
  let dataSource: DataSource;
  beforeAll(async () => {
    dataSource = await metadataOnly();
  });

  it('selects every column under its own name, with exact text for numeric and bigint and YYYY-MM-DD for dates', () => {
    expect(entityRows(dataSource, SampleEntity).select()).toBe(
      'sample_id, owner_personal_number, amount::text AS amount, loan_amount::text AS loan_amount, ' +
        "to_char(transfer_date, 'YYYY-MM-DD') AS transfer_date, to_char(end_date, 'YYYY-MM-DD') AS end_date, " +
        'signed_at, version, scopes, offer, created_at',
    );
  });

  it('prefixes each column with a table alias, keeping the answer names', () => {
    expect(entityRows(dataSource, SampleEntity, ['scopes', 'offer', 'createdAt']).select('s')).toBe(
      's.sample_id, s.owner_personal_number, s.amount::text AS amount, s.loan_amount::text AS loan_amount, ' +
        "to_char(s.transfer_date, 'YYYY-MM-DD') AS transfer_date, to_char(s.end_date, 'YYYY-MM-DD') AS end_date, s.signed_at, s.version",
    );
  });

  it('maps columns to properties on an instance of the entity, nulls kept', () => {
    const sample = entityRows(dataSource, SampleEntity).map(row);
    expect(sample).toBeInstanceOf(SampleEntity);
    expect({ ...sample }).toStrictEqual({
      sampleId: row.sample_id,
      ownerPersonalNumber: '191212121212',
      amount: '100.50',
      loanAmount: '2500000',
      transferDate: '2026-11-24',
      endDate: null,
      signedAt,
      version: 3,
      scopes: ['AIS', 'PIS'],
      offer: { rate: '3.45' },
      createdAt,
    });
    expect(sample.isSigned).toBe(true);
  });

  it('leaves omitted columns out of the list and the entity, and ignores fields beyond the list', () => {
    const rows = entityRows(dataSource, SampleEntity, ['loanAmount', 'scopes', 'offer', 'createdAt']);
    expect(rows.select()).not.toMatch(/loan_amount|scopes|offer|created_at/);
    const sample = rows.map({ ...row, available_balance: '1.00' });
    expect(Object.keys(sample).sort()).toEqual(['amount', 'endDate', 'ownerPersonalNumber', 'sampleId', 'signedAt', 'transferDate', 'version']);
  });

  it('reads SELECT rows and the [rows, count] answer of UPDATE … RETURNING alike', () => {
    const rows = entityRows(dataSource, SampleEntity);
    expect(rows.all([row, row])).toHaveLength(2);
    expect(rows.first([row])?.sampleId).toBe(row.sample_id);
    expect(rows.first([[row], 1])?.sampleId).toBe(row.sample_id);
    expect(rows.all([[row], 1])).toHaveLength(1);
    expect(rows.first([])).toBeNull();
    expect(rows.first([[], 0])).toBeNull();
  });

  it('inserts every column after the sandbox id, values in the same order, JSON columns as JSON text (issue 19: prepared inserts)', () => {
    const rows = entityRows(dataSource, SampleEntity);
    expect(rows.insert()).toBe(
      'INSERT INTO sample (sandbox_id, sample_id, owner_personal_number, amount, loan_amount, transfer_date, end_date, signed_at, version, scopes, offer, created_at) ' +
        'VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)',
    );
    expect(isSandboxScoped(rows.insert())).toBe(true);
    const sample = rows.map(row);
    expect(rows.values(sample)).toEqual([row.sample_id, '191212121212', '100.50', '2500000', '2026-11-24', null, signedAt, 3, ['AIS', 'PIS'], '{"rate":"3.45"}', createdAt]);
  });

  it('inserts the same values only where a FROM list yields a row, comparing against a value\'s own parameter', () => {
    const rows = entityRows(dataSource, SampleEntity);
    const text = rows.insertWhere((value) => `owner o WHERE o.sandbox_id = $1 AND o.personal_number = ${value('ownerPersonalNumber')}`);
    expect(text).toBe(
      'INSERT INTO sample (sandbox_id, sample_id, owner_personal_number, amount, loan_amount, transfer_date, end_date, signed_at, version, scopes, offer, created_at) ' +
        'SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12 FROM owner o WHERE o.sandbox_id = $1 AND o.personal_number = $3 ' +
        'RETURNING 1 AS inserted',
    );
    expect(isSandboxScoped(text)).toBe(true);
    expect(() => rows.insertWhere((value) => `owner WHERE x = ${value('nothing' as never)}`)).toThrow(/no column for nothing/);
  });

  it('refuses to insert a row with a column left undefined (it would be NULL, not the column default), or with columns omitted', () => {
    const rows = entityRows(dataSource, SampleEntity);
    const sample = rows.map(row);
    expect(() => rows.values({ ...sample, createdAt: undefined } as unknown as SampleEntity)).toThrow(/createdAt is undefined/);
    expect(() => entityRows(dataSource, SampleEntity, ['scopes']).insert()).toThrow(/omitted/);
  });

  it('refuses a column name the list would have to quote', () => {
    expect(() => entityRows(dataSource, OddEntity)).toThrow(/OddId needs quoting/);
  });
});
