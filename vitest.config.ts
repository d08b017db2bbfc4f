import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import HeavyFirstSequencer from './test/support/heavy-first-sequencer.js';
import { filesSharingAProcess } from './test/support/process-sharing.js';

const liveTests = 'test/**/*.live.test.ts';
// Files that leave no process-wide state behind run one after another in a worker that stays
// alive; the rest get a fresh process each (test/support/process-sharing.ts says which and why).
const sharing = filesSharingAProcess(fileURLToPath(new URL('.', import.meta.url)));

// Tests spawn real child processes (MCP servers, the CLI) and some load ONNX models, so
// parallelism stays modest on the 2-core machines this runs on: three workers, since a test that
// waits on a child or a browser leaves a core idle (the same checkout on the idle 2-core machine: 497 s
// with two workers, 438 s with three, the whole run at 188 % CPU; a later checkout: 361 s with
// three, 402 s with four, whose files spent 256 s importing instead of 149; with the shared-process
// project, shuffled orders: 273-296 s with three, 299 s with four). M3_TEST_WORKERS overrides.
export default defineConfig({
  test: {
    pool: 'forks',
    projects: [
      { extends: true, test: { name: 'own-process', include: ['test/**/*.test.ts'], exclude: [liveTests, ...sharing] } },
      {
        extends: true,
        test: { name: 'shared-process', include: sharing, isolate: false, setupFiles: ['test/support/shared-process-guard.ts'] },
      },
    ],
    maxWorkers: Number(process.env.M3_TEST_WORKERS) || 3,
    // Hang guards, not speed bounds: sized for the 2-core machine at a load average of 40, where a
    // test that spawns the CLI on the real ground truth took 92 s (test/eval/step/cli.test.ts) and
    // failed the old 60 s bound. A hung test costs this much once; a slow one never fails.
    testTimeout: 300_000,
    hookTimeout: 600_000,
    // expect.poll gives up after 1 s by default; a page or a child process on the loaded machine
    // may take longer to show what the test waits for (test/demo/browser-playground.test.ts failed so).
    expect: { poll: { timeout: 30_000 } },
    // The slowest files first, then Vitest's own summary as the last lines of the run.
    reporters: ['./test/support/slowest-files-reporter.ts', 'default'],
    // Whole-pipeline files start first on a fresh clone (no recorded durations), so none runs alone at the end.
    sequence: { sequencer: HeavyFirstSequencer },
    setupFiles: ['test/support/setup-no-network.ts'],
    globalSetup: ['test/support/global-setup.ts'],
  },
});
