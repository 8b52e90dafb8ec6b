import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { resolve, join } from 'node:path';
import { DataDirLock } from './data-dir-lock';

/**
 * Copies of a freshly migrated in-memory database, by a key of the migrations' code. Starting from
 * one skips PostgreSQL's initdb and every migration (seconds each): the e2e suite starts hundreds of
 * in-memory databases (test/support sets a store). Without a store each one starts empty.
 */
export interface MemoryTemplateStore {
  load(key: string): Promise<Blob | null>;
  save(key: string, dump: Blob): Promise<void>;
}

/**
 * The embedded PostgreSQL used when no DATABASE_URL is given: PGlite (a real PostgreSQL compiled to
 * WebAssembly) served on an ephemeral loopback port, so TypeORM and pg talk to it exactly as to a
 * server. pglite-socket runs every connection on one PGlite session, so clients must use a pool of
 * one connection.
 */
export class EmbeddedPostgres {
  private constructor(
    private readonly db: PGlite,
    private readonly server: PGLiteSocketServer,
    private readonly lock: DataDirLock | null,
    readonly host: string,
    readonly port: number,
  ) {}

  /** Set by the tests only (see MemoryTemplateStore); production starts each database as it is. */
  static memoryTemplates: MemoryTemplateStore | null = null;

  /**
   * dataDir `memory://` keeps everything in memory, started from `template` (a dump of another
   * in-memory database) when given; otherwise data lives in `<dataDir>/pgdata`.
   */
  static async start(dataDir: string, template?: Blob): Promise<EmbeddedPostgres> {
    const inMemory = dataDir === 'memory://';
    const lock = inMemory ? null : DataDirLock.acquire(resolve(dataDir));
    try {
      const db = inMemory ? await PGlite.create('memory://', template ? { loadDataDir: template } : {}) : await PGlite.create(join(resolve(dataDir), 'pgdata'));
      // The pool keeps one connection (see database.module), but a connection it replaces may still
      // be closing when the next one opens: with the socket server's default of one, Node's server
      // refused the new one at once. Both share the session's query queue.
      const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 2 });
      await server.start();
      const port = Number(server.getServerConn().split(':').pop());
      return new EmbeddedPostgres(db, server, lock, '127.0.0.1', port);
    } catch (error) {
      lock?.release();
      throw error;
    }
  }

  /** The whole database as a tar (for MemoryTemplateStore). */
  dump(): Promise<Blob> {
    return this.db.dumpDataDir('none');
  }

  async stop(): Promise<void> {
    try {
      await this.server.stop();
      await this.db.close();
    } finally {
      this.lock?.release();
    }
  }
}
