import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export class DataDirLocked extends Error {
  constructor(dataDir: string, pid: number) {
    super(`DATA_DIR ${dataDir} is in use by process ${pid}; the embedded database allows one process per data folder.`);
    this.name = 'DataDirLocked';
  }
}

/**
 * PGlite does not lock its data folder, and two processes writing one folder corrupt it. A pid file,
 * created exclusively, keeps a second process out; a lock left by a dead process is taken over.
 */
export class DataDirLock {
  private constructor(private readonly path: string) {}

  static acquire(dataDir: string): DataDirLock {
    mkdirSync(dataDir, { recursive: true });
    const path = join(dataDir, 'sandbox.pid');
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        const fd = openSync(path, 'wx');
        writeSync(fd, String(process.pid));
        closeSync(fd);
        return new DataDirLock(path);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        const holder = Number(readFileSync(path, 'utf8').trim());
        // Our own pid is stale too: in a container every start is pid 1.
        if (holder && holder !== process.pid && isAlive(holder)) throw new DataDirLocked(dataDir, holder);
        rmSync(path, { force: true });
      }
    }
    throw new Error(`Could not take the lock ${path}`);
  }

  release(): void {
    rmSync(this.path, { force: true });
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
