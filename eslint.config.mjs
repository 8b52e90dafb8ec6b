// ESLint (flat config): typescript-eslint's recommended type-checked rules on every TypeScript file,
// and the boundaries between libs of ARCHITECTURE.md. `npm run lint` allows no warnings.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// Which libs each lib may import (through their doors), as the libs' READMEs describe them:
// common is the shared kernel; eid is the one identity engine and knows no caller; directory says who
// exists (and provides eid's user directory); the interfaces build on those; sandbox's admin routes
// call the owning libs. Nothing but apps/ imports sandbox.
const LIB_DEPENDENCIES = {
  common: [],
  eid: ['common'],
  directory: ['common', 'eid'],
  auth: ['common', 'eid', 'directory'],
  signing: ['common', 'eid', 'directory'],
  enterprise: ['common', 'directory', 'auth'],
  savings: ['common', 'eid', 'auth'],
  mortgage: ['common', 'directory', 'signing'],
  sandbox: ['common', 'eid', 'directory', 'auth', 'signing', 'enterprise', 'savings', 'mortgage'],
};
const LIBS = Object.keys(LIB_DEPENDENCIES);
const OUTSIDE_LIBS = ['./apps', './test', './migrations', './scripts'];

// no-restricted-paths compares resolved files, so `@app/<lib>`, `@app/<lib>/...` and relative paths
// into another lib are judged alike.
const boundaryZones = [
  // A lib's door is its src/index.ts: nothing outside the lib reaches behind it.
  ...LIBS.map((lib) => ({
    target: [...LIBS.filter((other) => other !== lib).map((other) => `./libs/${other}`), ...OUTSIDE_LIBS],
    from: `./libs/${lib}`,
    except: ['./src/index.ts'],
    message: `Import libs/${lib} only through its door, '@app/${lib}'.`,
  })),
  // Inside a lib, its own files are imported directly: through its door they would form a cycle.
  ...LIBS.map((lib) => ({
    target: `./libs/${lib}`,
    from: `./libs/${lib}/src/index.ts`,
    message: `Inside libs/${lib}, import the file itself, not the lib's door (an import cycle).`,
  })),
  // The direction of dependencies between libs.
  ...LIBS.flatMap((lib) => {
    const forbidden = LIBS.filter((other) => other !== lib && !LIB_DEPENDENCIES[lib].includes(other));
    if (forbidden.length === 0) return [];
    const allowed = LIB_DEPENDENCIES[lib].join(', ') || 'no other lib';
    return [
      {
        target: `./libs/${lib}`,
        from: forbidden.map((other) => `./libs/${other}`),
        message: `libs/${lib} may import ${allowed} (see its README and ARCHITECTURE.md).`,
      },
    ];
  }),
  // Libs never import the app, nor the tests; unit specs next to the code may share test/support.
  { target: './libs', from: './apps', message: 'Libs do not import from apps/.' },
  {
    target: './libs/**/!(*.spec).ts',
    from: './test',
    message: 'Libs do not import from test/.',
  },
  {
    target: './libs/**/*.spec.ts',
    from: './test',
    except: ['./support'],
    message: 'Unit specs in libs may import test/support only.',
  },
];

// The door is named by its alias: neither a relative path into a lib nor a path below `@app/<lib>`.
const doorPatterns = [
  {
    regex: `^(\\.\\./)+(libs/)?(${LIBS.join('|')})/src(/|$)`,
    message: "Import another lib through its door, '@app/<lib>', not by a relative path.",
  },
  { regex: '^@app/[^/]+/', message: "Import a lib through its door, '@app/<lib>', not a path inside it." },
];

export default defineConfig(
  { ignores: ['node_modules/', 'dist/', 'coverage/', 'test-artifacts/', '.data/'] },
  js.configs.recommended,
  {
    files: ['**/*.ts'],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      // Every folder with TypeScript (apps, libs, migrations, test, scripts) is in tsconfig.json.
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
    },
    rules: {
      // In recommendedTypeChecked already; kept explicit because an unawaited promise here is a lost
      // error or a transaction that outlives its request.
      '@typescript-eslint/no-floating-promises': 'error',
      // Passing on a caught `unknown` (passport's error callback) is rejecting with what was thrown,
      // as `throw error` in a catch block is; anything else must still be an Error.
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingUnknown: true }],
      'import-x/no-restricted-paths': ['error', { basePath: import.meta.dirname, zones: boundaryZones }],
      'no-restricted-imports': ['error', { patterns: doorPatterns }],
    },
  },
  {
    // The e2e suites read answers through supertest, whose `res.body` is `any` by design (the tests
    // check its shape with expect), as are jest's asymmetric matchers (`expect.any`, `objectContaining`).
    // Typing every answer would restate the OpenAPI document; the type-aware rules stay on otherwise.
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    // Plain JavaScript (configs, scripts, test helpers run as child processes): no type information.
    files: ['**/*.{js,mjs,cjs}'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: { ...globals.node } },
  },
);
