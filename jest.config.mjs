import { availableParallelism } from 'node:os';

// Jest runs in native ESM mode (node --experimental-vm-modules): NestJS 12 packages are ESM-only.
const shared = {
  rootDir: '.',
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: '<rootDir>/tsconfig.jest.json' }] },
  moduleNameMapper: { '^@app/([a-z-]+)$': '<rootDir>/libs/$1/src' },
  setupFiles: ['<rootDir>/test/support/setup-env.ts'],
};

export default {
  // Each e2e file starts whole apps on a real PostgreSQL; on a busy two-core machine that can take
  // several seconds, so hooks and tests get more than jest's default 5 s (a global-only option).
  testTimeout: 60_000,
  // At least two test files at once, also on two cores (jest's default there is one): an e2e file
  // spends much of its time waiting on its database, sockets and browser.
  maxWorkers: Math.max(2, availableParallelism() - 1),
  projects: [
    { ...shared, displayName: 'unit', testMatch: ['<rootDir>/libs/**/*.spec.ts', '<rootDir>/apps/**/*.spec.ts'] },
    { ...shared, displayName: 'e2e', testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'], slowTestThreshold: 30 },
  ],
};
