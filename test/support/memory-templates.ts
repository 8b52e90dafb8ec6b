import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EmbeddedPostgres, type MemoryTemplateStore } from '@app/common';

/** One migrated database per version of the migrations, shared by every test file, worker and run. */
const DIR = join(tmpdir(), 'bank-api-sandbox-test-templates');

/**
 * The e2e suite's in-memory databases start from a dump of a freshly migrated one instead of
 * PostgreSQL's initdb and every migration (about 5 s an app on two cores, with hundreds of apps).
 * The dump is taken right after the migrations, before the app writes anything, so a test still
 * starts on what a fresh database is. Written to a temporary name and renamed: workers never see
 * half a file; older versions are removed.
 */
const fileTemplates: MemoryTemplateStore = {
  load(key) {
    try {
      return Promise.resolve(new Blob([readFileSync(join(DIR, `${key}.tar`))]));
    } catch {
      return Promise.resolve(null);
    }
  },
  async save(key, dump) {
    mkdirSync(DIR, { recursive: true });
    const partial = join(DIR, `${key}.${process.pid}.partial`);
    writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
    renameSync(partial, join(DIR, `${key}.tar`));
    for (const name of readdirSync(DIR)) {
      if (name.endsWith('.tar') && name !== `${key}.tar`) rmSync(join(DIR, name), { force: true });
    }
  },
};

export function useMemoryTemplates(): void {
  EmbeddedPostgres.memoryTemplates = fileTemplates;
}
