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
  projects: [
    { ...shared, displayName: 'unit', testMatch: ['<rootDir>/libs/**/*.spec.ts', '<rootDir>/apps/**/*.spec.ts'] },
    { ...shared, displayName: 'e2e', testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'], slowTestThreshold: 30 },
  ],
};
