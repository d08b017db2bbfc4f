import { defineConfig } from 'vitest/config';

// Tests spawn real child processes (MCP servers, the CLI) and some load ONNX models,
// so keep parallelism modest on the 2-core machines this runs on.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/**/*.live.test.ts', 'node_modules/**'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // The slowest files first, then Vitest's own summary as the last lines of the run.
    reporters: ['./test/support/slowest-files-reporter.ts', 'default'],
    setupFiles: ['test/support/setup-no-network.ts'],
    globalSetup: ['test/support/global-setup.ts'],
  },
});
