import { defineConfig, type TestUserConfig } from 'vitest/config';

// unit: no services needed; integration: real PostgreSQL and NATS; e2e: real Chromium against the embedded build.

/**
 * Test files at a time in every project but e2e's processes. Vitest's default, one less than the cores, runs one file
 * at a time on 2 cores, while most files wait on PostgreSQL, NATS, a browser or a timer. Projects run together share
 * it (the same number for all of one `sequence.groupOrder`).
 */
const WORKERS = 2;

/** The browser tests' settings. */
const E2E: TestUserConfig = {
  environment: 'node',
  // Pages on a busy 2-core machine can take seconds; polls wait for them, assertions stay the same.
  expect: { poll: { timeout: 15_000, interval: 100 } },
  // One initdb per run, copied into each test portal's data folder.
  globalSetup: ['./e2e/global-setup.ts'],
  testTimeout: 60_000,
  hookTimeout: 180_000,
};

/** Browser tests that start the portal's own commands or build a remote (project e2e-processes). */
const E2E_PROCESSES = [
  'e2e/npm-start.e2e.test.ts',
  'e2e/npm-run-dev.e2e.test.ts',
  'e2e/distributed.e2e.test.ts',
  'e2e/dev-loop.e2e.test.ts',
  'e2e/composition.e2e.test.ts',
];

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          environment: 'node',
          include: ['{libs,svc-*,gateway,scripts,deploy,bench}/**/test/**/*.test.ts'],
          exclude: ['**/node_modules/**', '**/*.int.test.ts', 'libs/session/**', 'libs/ui-kit/**'],
          // No module mocks and no state left between files: the files share a worker's modules instead of
          // importing Fastify, the services and sharp again for each (docs/decisions.md, "How the tests run").
          isolate: false,
          maxWorkers: WORKERS,
        },
      },
      {
        test: {
          name: 'unit-dom',
          environment: 'jsdom',
          include: [
            '{shell,mf-*}/test/**/*.test.{ts,tsx}',
            'libs/session/test/**/*.test.{ts,tsx}',
            'libs/ui-kit/test/**/*.test.{ts,tsx}',
            'embed/test/**/*.test.ts',
          ],
          exclude: ['**/node_modules/**'],
          setupFiles: ['./vitest.dom-setup.ts'],
          // Isolated: many files mock modules (vi.mock) and the remotes keep state in their modules.
          maxWorkers: WORKERS,
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'integration',
          environment: 'node',
          // Bus hops and background captures on a busy 2-core machine: polls wait for them, assertions stay.
          expect: { poll: { timeout: 30_000, interval: 100 } },
          include: ['{libs,svc-*,gateway,scripts}/**/test/**/*.int.test.ts'],
          // Its replicas are processes that always talk over NATS: integration-nats runs it, once.
          exclude: ['**/node_modules/**', 'svc-imaging/test/scale-out.int.test.ts'],
          // Each file owns its databases, NATS namespace, ports and folders, and closes what it opened: two files at
          // a time, sharing a worker's modules (the services, Fastify, sharp) instead of importing them per file.
          isolate: false,
          maxWorkers: WORKERS,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          // The services' suites again, on the NATS server instead of the in-process bus (createTestBus).
          name: 'integration-nats',
          environment: 'node',
          expect: { poll: { timeout: 30_000, interval: 100 } },
          include: ['svc-*/test/**/*.int.test.ts'],
          exclude: ['**/node_modules/**'],
          env: { TEST_BUS: 'nats' },
          isolate: false,
          maxWorkers: WORKERS,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          ...E2E,
          name: 'e2e',
          include: ['e2e/**/*.e2e.test.ts'],
          exclude: ['**/node_modules/**', ...E2E_PROCESSES],
          // Two files side by side: each has its own portal (port, data folder, embedded PostgreSQL on its own
          // port, mail outbox), its own Chromium, and screenshots named after the file. After the other projects.
          maxWorkers: WORKERS,
          sequence: { groupOrder: 1 },
        },
      },
      {
        test: {
          ...E2E,
          // `npm start`, `npm run dev`, `start:distributed` and Rspack builds use both cores by themselves: one at a
          // time, after the rest (Vitest runs a project of one worker and group 0 last).
          name: 'e2e-processes',
          include: E2E_PROCESSES,
          fileParallelism: false,
        },
      },
    ],
  },
});
