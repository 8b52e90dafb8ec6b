import { type FieldDef, Query } from 'pg';
import { reuseRowDescriptions } from './prepared-statements';

// Issue 19: a named statement's row description is built into parsers once and reused while it
// stays the same; the rows parse exactly as pg parses them, and a changed description is rebuilt.

const INT4 = 23;
const TEXT = 25;
const TIMESTAMPTZ = 1184;

type Described = Query & { _result: { addFields(fields: FieldDef[]): void; parseRow(values: unknown[]): Record<string, unknown> } };

function column(name: string, dataTypeID: number): FieldDef {
  return { name, dataTypeID, format: 'text', tableID: 0, columnID: 0, dataTypeSize: -1, dataTypeModifier: -1 };
}

/** A query of `name` that received `fields` as its row description, as pg hands it over. */
function described(name: string, fields: FieldDef[]): Described {
  const query = new Query('SELECT …', []) as Described;
  reuseRowDescriptions(query, name);
  query._result.addFields(fields);
  return query;
}

const plain = (fields: FieldDef[]) => {
  const query = new Query('SELECT …', []) as Described;
  query._result.addFields(fields);
  return query;
};

describe('row descriptions of named statements (issue 19)', () => {
  const row = ['7', 'seven', '2026-11-27 03:00:00.123+00'];
  const columns = () => [column('n', INT4), column('word', TEXT), column('at', TIMESTAMPTZ)];

  it('a description received again serves from the kept parsers, and its rows parse as pg parses them', () => {
    const first = described('sdb_same', columns());
    const again = described('sdb_same', columns());
    const expected = plain(columns())._result.parseRow(row);
    expect(expected).toEqual({ n: 7, word: 'seven', at: new Date('2026-11-27T03:00:00.123Z') });
    expect(first._result.parseRow(row)).toEqual(expected);
    expect(again._result.parseRow(row)).toEqual(expected);
    expect((again._result as unknown as { _parsers: unknown })._parsers).toBe((first._result as unknown as { _parsers: unknown })._parsers);
  });

  it('a description that changed under the same name (a column of another type, another name, one more) is built again', () => {
    described('sdb_changed', columns());
    expect(described('sdb_changed', [column('n', TEXT), column('word', TEXT), column('at', TIMESTAMPTZ)])._result.parseRow(row)).toEqual({
      n: '7',
      word: 'seven',
      at: new Date('2026-11-27T03:00:00.123Z'),
    });
    expect(described('sdb_changed', [column('count', INT4), column('word', TEXT), column('at', TIMESTAMPTZ)])._result.parseRow(row)).toMatchObject({ count: 7 });
    expect(described('sdb_changed', [...columns(), column('extra', TEXT)])._result.parseRow([...row, null])).toMatchObject({ n: 7, extra: null });
  });
});
