import type { DataSource, EntityMetadata, EntityTarget } from 'typeorm';
import { SANDBOX_ID_COLUMN } from '../sandbox/sandbox-column';
import { returnedRows } from './returned-rows';

/** One column of the select list: how to read it, and where its value goes. */
interface ColumnRead {
  readonly property: string;
  readonly column: string;
  /** The select expression, given the table alias prefix (`a.` or nothing). */
  readonly expression: (prefix: string) => string;
  /** A json or jsonb column: its value is bound as JSON text (pg would bind a JS array as a PostgreSQL array). */
  readonly json: boolean;
}

/**
 * The select list and the row mapping of one entity, both from its TypeORM column metadata, so the
 * entity stays the only declaration of its columns. For the raw statements that earn their place
 * (`FOR UPDATE`, conditional `UPDATE … RETURNING`, joins): `SELECT ${rows.select()} FROM …`, then
 * `rows.first(result)` or `rows.all(result)`. Built once per repository; mapping a row walks a
 * precomputed list, like a hand-written mapper.
 */
export class EntityRows<T extends object> {
  private readonly reads: readonly ColumnRead[];
  private readonly create: () => T;
  private readonly selects = new Map<string, string>();
  private readonly table: string;
  /** Why `insert()` cannot be built for this entity, if it cannot. */
  private readonly notInsertable: string | undefined;
  private insertText: string | undefined;

  constructor(metadata: EntityMetadata, omit: readonly PropertyKey[] = []) {
    const driver = metadata.connection.driver;
    // The sandbox column is SandboxDb's business: statements bind it, no entity reads it.
    const columns = metadata.columns.filter((column) => !omit.includes(column.propertyName) && column.databaseName !== SANDBOX_ID_COLUMN);
    for (const column of columns) {
      if (column.embeddedMetadata || column.relationMetadata || column.isVirtual) {
        throw new Error(`EntityRows(${metadata.name}): ${column.propertyName} is not a plain column`);
      }
      // The list names columns unquoted, as the statements around it do.
      if (!/^[a-z_][a-z0-9_]*$/.test(column.databaseName)) throw new Error(`EntityRows(${metadata.name}): column ${column.databaseName} needs quoting`);
    }
    this.reads = columns.map((column) => ({
      property: column.propertyName,
      column: column.databaseName,
      expression: selectExpression(column, driver.normalizeType(column)),
      json: ['json', 'jsonb'].includes(driver.normalizeType(column)),
    }));
    const target = metadata.target as new () => T;
    this.create = () => new target();
    this.table = metadata.tableName;
    const transformed = columns.find((column) => column.transformer);
    this.notInsertable = omit.length > 0 ? 'some columns are omitted' : transformed ? `${transformed.propertyName} has a transformer` : undefined;
  }

  /**
   * `INSERT INTO <table> (sandbox_id, <every column>) VALUES ($1, $2, …)`, for SandboxDb.query with
   * `values(entity)`: one prepared statement where TypeORM would build the statement anew on every
   * insert (issue 19, the hot paths' writes). Every column is given: none falls back to its default.
   */
  insert(): string {
    if (this.notInsertable) throw new Error(`EntityRows(${this.table}).insert(): ${this.notInsertable}`);
    this.insertText ??= `INSERT INTO ${this.table} (sandbox_id, ${this.columnList()}) VALUES ($1, ${this.reads.map((_, i) => `$${i + 2}`).join(', ')})`;
    return this.insertText;
  }

  /**
   * `INSERT INTO <table> (sandbox_id, <every column>) SELECT $1, $2, … FROM <from>`, with the same
   * `values(entity)`: the row goes in only if `from` (a FROM list and its WHERE) yields a row, in the
   * same statement, e.g. only into an account the caller owns. `from` gets the parameter of a
   * property's value (`$3`) to compare against. Answers one row if it inserted, none if not.
   */
  insertWhere(from: (parameter: (property: keyof T & string) => string) => string): string {
    if (this.notInsertable) throw new Error(`EntityRows(${this.table}).insertWhere(): ${this.notInsertable}`);
    const parameter = (property: string) => {
      const index = this.reads.findIndex((read) => read.property === property);
      if (index < 0) throw new Error(`EntityRows(${this.table}).insertWhere(): no column for ${property}`);
      return `$${index + 2}`;
    };
    return `INSERT INTO ${this.table} (sandbox_id, ${this.columnList()}) SELECT $1, ${this.reads.map((_, i) => `$${i + 2}`).join(', ')} FROM ${from(parameter)} RETURNING 1 AS inserted`;
  }

  /** The entity's values in `insert()`'s column order; a property left undefined is a mistake, refused. */
  values(entity: T): unknown[] {
    return this.reads.map((read) => {
      const value = (entity as Record<string, unknown>)[read.property];
      if (value === undefined) throw new Error(`EntityRows(${this.table}).values(): ${read.property} is undefined`);
      return read.json && value !== null ? JSON.stringify(value) : value;
    });
  }

  private columnList(): string {
    return this.reads.map((read) => read.column).join(', ');
  }

  /** The select list, every column under its own name: `a.id, a.amount::text AS amount, …` with alias `a`. */
  select(alias?: string): string {
    const key = alias ?? '';
    let list = this.selects.get(key);
    if (list === undefined) {
      const prefix = alias ? `${alias}.` : '';
      list = this.reads.map((read) => read.expression(prefix)).join(', ');
      this.selects.set(key, list);
    }
    return list;
  }

  /** A row read with `select()` (extra fields are ignored) as the entity. */
  map(row: Record<string, unknown>): T {
    const entity = this.create() as Record<string, unknown>;
    for (const read of this.reads) entity[read.property] = row[read.column];
    return entity as T;
  }

  /** Every row of a query result: a SELECT's or INSERT … RETURNING's rows, or UPDATE … RETURNING's [rows, count]. */
  all(result: unknown): T[] {
    return returnedRows<Record<string, unknown>>(result).map((row) => this.map(row));
  }

  /** The first row of a query result (shapes as `all`), or null when there is none. */
  first(result: unknown): T | null {
    const row = returnedRows<Record<string, unknown>>(result)[0];
    return row ? this.map(row) : null;
  }
}

/**
 * The values raw SQL must answer for the entity's property types, decided per column type: exact
 * decimal text for numeric and bigint (never a float), 'YYYY-MM-DD' for a date (node-postgres
 * would make it a Date at local midnight). Everything else as the driver parses it.
 */
function selectExpression(column: EntityMetadata['columns'][number], type: string): (prefix: string) => string {
  const name = column.databaseName;
  if (column.isArray) return (t) => `${t}${name}`;
  switch (type) {
    case 'numeric':
    case 'bigint':
      return (t) => `${t}${name}::text AS ${name}`;
    case 'date':
      return (t) => `to_char(${t}${name}, 'YYYY-MM-DD') AS ${name}`;
    default:
      return (t) => `${t}${name}`;
  }
}

/** The rows helper of an entity, from the data source's metadata; `omit` leaves out columns no caller reads. */
export function entityRows<E extends object>(dataSource: DataSource, target: EntityTarget<E>): EntityRows<E>;
export function entityRows<E extends object, K extends keyof E>(dataSource: DataSource, target: EntityTarget<E>, omit: readonly K[]): EntityRows<Omit<E, K>>;
export function entityRows<E extends object>(dataSource: DataSource, target: EntityTarget<E>, omit: readonly PropertyKey[] = []): EntityRows<E> {
  return new EntityRows<E>(dataSource.getMetadata(target), omit);
}
