// Live provider tests call the real APIs, so they run apart from the default suite (which
// excludes *.live.test.ts and blocks non-loopback network):
//   npx vitest run --config test/llm/vitest.live.config.ts
// Each vendor runs only when its key is set in .env or the environment.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    include: ['test/llm/**/*.live.test.ts'],
    pool: 'forks',
    maxWorkers: 1,
    testTimeout: 180_000,
  },
});
