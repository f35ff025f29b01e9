// Unit tests (*.spec.ts beside the code) and end-to-end tests (test/e2e) run on the embedded store by default.
// With TEST_DATABASE_URL and TEST_REDIS_URL set, the same suites run against the real PostgreSQL and Redis,
// and the integration suites (test/integration/*.int-spec.ts: faults, several instances) run too.
const services = Boolean(process.env.TEST_DATABASE_URL);

export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.json', diagnostics: { ignoreCodes: [151002] } }],
    '/node_modules/.+\\.m?js$': '<rootDir>/test/support/node-modules-transform.cjs',
  },
  transformIgnorePatterns: [],
  setupFiles: ['<rootDir>/test/support/nest-globals.ts'],
  testMatch: [
    '<rootDir>/src/**/*.spec.ts',
    '<rootDir>/web/**/*.spec.ts',
    '<rootDir>/test/**/*.e2e-spec.ts',
    ...(services ? ['<rootDir>/test/**/*.int-spec.ts'] : []),
  ],
  testTimeout: 60_000,
  maxWorkers: process.env.JEST_WORKERS ?? '50%',
  // Tests run in worker processes (never in band), and a worker whose memory passed this after a test file is
  // replaced: the e2e suites start many applications with embedded databases, and one process holding them all
  // grew past 5 GB and slowed every suite after it.
  workerIdleMemoryLimit: '1500MB',
};
