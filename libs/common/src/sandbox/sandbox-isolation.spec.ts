import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { isDueWorkQuery } from '../jobs/jobs-db';
import { isSandboxScoped } from './sandbox-db';

/** Jest runs from the repository's root (rootDir '.'). */
const ROOT = process.cwd();

/** The only sources that may reach the database other than through SandboxDb, and why. */
const OUTSIDE_SANDBOX_DB: Record<string, string> = {
  'libs/common/src/sandbox/sandbox-db.ts': 'it is SandboxDb',
  'libs/common/src/database/prepared-statements.ts': "runs SandboxDb's statements (already scoped) on TypeORM's pool or the open transaction",
  'libs/common/src/sandbox/sandbox-context.ts': "carries the open transaction's manager for SandboxDb",
  'libs/common/src/database/entity-rows.ts': 'reads entity metadata; runs no statement',
  'libs/common/src/database/database.module.ts': 'opens the connection and runs the migrations',
  'libs/common/src/health/database-health.ts': 'SELECT 1: the service, not a sandbox',
  'libs/common/src/sandbox/sandbox-registry.ts': 'the sandbox table itself: which sandboxes exist, not their data',
  'libs/common/src/sandbox/sandbox-creation-log.ts': 'self-service creations per caller IP: the service\'s, not a sandbox\'s',
  'libs/common/src/jobs/job-lease.repository.ts': 'job_lease guards processes, not a sandbox',
  'libs/common/src/sandbox/sandbox-changes.ts': 'the change log of what instances cache about sandboxes: the service\'s, across sandboxes',
  'libs/common/src/jobs/jobs-db.ts': "the scheduled passes' search for due work across sandboxes (contract §13 Time and jobs)",
  'libs/directory/src/certificates/sandbox-ca.repository.ts': "strict mode's one CA and the serials it issued: the service's, shared by every sandbox (contract §16)",
  'libs/common/src/journal/journal-store.ts': "the journal's batches and retention span every sandbox (each row still names its sandbox_id)",
  'libs/common/src/idempotency/idempotency.store.ts':
    "Idempotency-Key records of a sandbox or of the service itself (POST /sandboxes: sandbox_id null); every statement on one record names its sandbox_id, the expiry job spans every sandbox",
};

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [path] : [];
  });
}

const FILES = [...sources(join(ROOT, 'libs')), ...sources(join(ROOT, 'apps'))].map((path) => ({
  file: relative(ROOT, path),
  text: readFileSync(path, 'utf8'),
}));

/** A template literal that is a statement: SELECT, INSERT, UPDATE, DELETE or WITH first (comments left out). */
function statementsOf(text: string): string[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  return [...code.matchAll(/`([^`]*)`/g)].map((m) => m[1]).filter((literal) => /^\s*(SELECT|INSERT|UPDATE|DELETE|WITH)\s/i.test(literal));
}

describe('contract §13 Isolation: no query can forget the sandbox', () => {
  it('reaches the database only through SandboxDb (no DataSource, EntityManager or TypeORM repository in a lib or app)', () => {
    const bypasses = FILES.filter(({ file }) => !(file in OUTSIDE_SANDBOX_DB))
      .filter(({ text }) => /@InjectRepository|@InjectDataSource|\bgetRepository\(|\bDataSource\b|\bEntityManager\b|\.manager\.(query|insert|find|update|delete|save)/.test(text))
      .map(({ file }) => file);
    expect(bypasses).toEqual([]);
  });

  // A job's due work (a SELECT of sandbox ids judged by sandbox_now) spans sandboxes by design; SandboxDb
  // refuses it, so it runs only through JobsDb (contract §13 Time and jobs).
  it('names the sandbox in every SQL text of the repositories (sandbox_id = $1, or the first inserted column), a job\'s due work aside', () => {
    const unscoped = FILES.filter(({ file }) => !(file in OUTSIDE_SANDBOX_DB)).flatMap(({ file, text }) =>
      statementsOf(text)
        .filter((sql) => !isSandboxScoped(sql) && !isDueWorkQuery(sql))
        .map((sql) => `${file}: ${sql.replace(/\s+/g, ' ').trim().slice(0, 120)}`),
    );
    expect(unscoped).toEqual([]);
  });

  it('finds the repositories it checks (the scan is not empty)', () => {
    expect(FILES.flatMap(({ text }) => statementsOf(text)).length).toBeGreaterThan(60);
  });
});

describe(isSandboxScoped.name, () => {
  it.each([
    'SELECT id FROM partner WHERE sandbox_id = $1 AND api_key_hash = $2',
    'UPDATE transfer t SET status = $2 WHERE t.sandbox_id = $1',
    'INSERT INTO tpp (sandbox_id, identifier) VALUES ($1, $2) ON CONFLICT (sandbox_id, identifier) DO NOTHING',
    'INSERT INTO tpp (sandbox_id, identifier) SELECT $1, $2',
  ])('accepts %s', (sql) => expect(isSandboxScoped(sql)).toBe(true));

  it.each([
    'SELECT id FROM partner WHERE api_key_hash = $1',
    'SELECT id FROM partner WHERE sandbox_id = $10',
    "SELECT id FROM partner WHERE sandbox_id = 'default'",
    'INSERT INTO tpp (identifier, sandbox_id) VALUES ($2, $1)',
    'DELETE FROM partner',
  ])('refuses %s', (sql) => expect(isSandboxScoped(sql)).toBe(false));
});
