import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, EntityTarget, FindManyOptions, FindOptionsWhere, InsertResult, ObjectLiteral } from 'typeorm';
import { EntityRows } from '../database/entity-rows';
import { PreparedStatements } from '../database/prepared-statements';
import { SandboxContext } from './sandbox-context';

/**
 * A statement names the current sandbox as `sandbox_id = $1` (reads, updates, deletes, joins) or
 * inserts it as the first column from `$1` (`INSERT INTO t (sandbox_id, …) VALUES ($1, …)` or
 * `… SELECT $1, …`).
 */
const SCOPED_CONDITION = /\bsandbox_id\s*=\s*\$1(?!\d)/;
const SCOPED_INSERT = /^\s*INSERT INTO [a-z_][a-z0-9_]* \(sandbox_id,[^)]*\)\s*(?:VALUES\s*\(\s*\$1\s*,|SELECT\s+\$1\s*,)/i;

export class UnscopedStatement extends Error {
  constructor(sql: string) {
    super(`Refused a statement that does not scope the sandbox (contract §13; write sandbox_id = $1): ${sql.replace(/\s+/g, ' ').trim().slice(0, 200)}`);
  }
}

export function isSandboxScoped(sql: string): boolean {
  return SCOPED_CONDITION.test(sql) || SCOPED_INSERT.test(sql);
}

/** Scoped texts remembered at most (the code base's statements; text built from data is checked every time past it). */
const SCOPED_TEXTS_KEPT = 1000;

/** Rows of an entity as TypeORM inserts them, with the sandbox column filled in by SandboxDb. */
type Scoped<E> = E & { sandboxId?: string };

/**
 * The one door to sandbox data (contract §13 Isolation): every statement runs as the context's
 * sandbox and in the context's transaction, if one is open. `query` binds the sandbox id as `$1`
 * (the caller's parameters follow as `$2`…) and refuses SQL that does not use it; the entity
 * methods add `sandboxId` to the rows and conditions. Repositories inject this, never DataSource.
 */
@Injectable()
export class SandboxDb {
  private readonly statements: PreparedStatements;
  /** Texts found scoped: the repositories' SQL is fixed text, checked once rather than scanned on every call. */
  private readonly scopedTexts = new Set<string>();

  constructor(private readonly dataSource: DataSource) {
    this.statements = new PreparedStatements(dataSource);
  }

  /** The select list and row mapping of an entity (its sandbox column left out): see EntityRows. */
  rows<E extends object>(target: EntityTarget<E>): EntityRows<E>;
  rows<E extends object, K extends keyof E>(target: EntityTarget<E>, omit: readonly K[]): EntityRows<Omit<E, K>>;
  rows<E extends object>(target: EntityTarget<E>, omit: readonly PropertyKey[] = []): EntityRows<E> {
    return new EntityRows<E>(this.dataSource.getMetadata(target), omit);
  }

  /** The context's transaction manager, else the data source's. */
  get manager(): EntityManager {
    return SandboxContext.current().manager ?? this.dataSource.manager;
  }

  get sandboxId(): string {
    return SandboxContext.sandboxId;
  }

  /** As a prepared statement (see PreparedStatements): each text planned once per connection. */
  async query<T = unknown>(sql: string, parameters: readonly unknown[] = []): Promise<T> {
    if (!this.scopedTexts.has(sql)) {
      if (!isSandboxScoped(sql)) throw new UnscopedStatement(sql);
      if (this.scopedTexts.size < SCOPED_TEXTS_KEPT) this.scopedTexts.add(sql);
    }
    const { sandboxId, manager } = SandboxContext.current();
    return this.statements.query<T>(manager, sql, [sandboxId, ...parameters]);
  }

  insert<E extends ObjectLiteral>(target: EntityTarget<E>, rows: E | E[]): Promise<InsertResult> {
    const sandboxId = this.sandboxId;
    const scoped = (Array.isArray(rows) ? rows : [rows]).map((row): Scoped<E> => ({ ...row, sandboxId }));
    return this.manager.insert(target, scoped);
  }

  findOneBy<E extends ObjectLiteral>(target: EntityTarget<E>, where: FindOptionsWhere<E>): Promise<E | null> {
    return this.manager.findOneBy(target, { ...where, sandboxId: this.sandboxId });
  }

  find<E extends ObjectLiteral>(target: EntityTarget<E>, options: FindManyOptions<E> & { where: FindOptionsWhere<E> }): Promise<E[]> {
    return this.manager.find(target, { ...options, where: { ...options.where, sandboxId: this.sandboxId } });
  }

  /**
   * Runs `work` in one transaction whose manager every SandboxDb call inside uses (the embedded
   * database has one connection: a statement outside the open transaction would wait for it). A
   * call inside an open transaction joins it.
   */
  transaction<T>(work: () => Promise<T>): Promise<T> {
    const open = SandboxContext.current().manager;
    if (open?.queryRunner?.isTransactionActive) return work();
    return this.dataSource.transaction((manager) => SandboxContext.withManager(manager, work));
  }
}
