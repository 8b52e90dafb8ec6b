import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { resolve, join } from 'node:path';
import { DataDirLock } from './data-dir-lock';

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

  /** dataDir `memory://` keeps everything in memory; otherwise data lives in `<dataDir>/pgdata`. */
  static async start(dataDir: string): Promise<EmbeddedPostgres> {
    const inMemory = dataDir === 'memory://';
    const lock = inMemory ? null : DataDirLock.acquire(resolve(dataDir));
    try {
      const db = await PGlite.create(inMemory ? 'memory://' : join(resolve(dataDir), 'pgdata'));
      const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0 });
      await server.start();
      const port = Number(server.getServerConn().split(':').pop());
      return new EmbeddedPostgres(db, server, lock, '127.0.0.1', port);
    } catch (error) {
      lock?.release();
      throw error;
    }
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
