// The order test files start in. Vitest starts the files that took longest last time first (its
// results cache, node_modules/.vite/vitest); on a fresh clone there is no cache and it starts the
// largest files first, which put the main job (test/e2e/bench.test.ts, about a minute of one
// worker) near the end of the run, running alone while the other workers had nothing left. The
// files below run whole pipelines on purpose; when Vitest has no duration for one, it starts
// first, in this order. test/architecture/heavy-first.test.ts checks that each path exists.
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

export const startFirst = [
  'test/e2e/bench.test.ts',
  'test/e2e/readme-offline.test.ts',
  'test/faults/server-crash-oracle.test.ts',
  'test/eval/step/reference-python.test.ts',
  'test/runner/shard-merge-e2e.test.ts',
  'test/servers/ocr.test.ts',
  'test/view/browser-view.test.ts',
  'test/media/transport-policy.test.ts',
  'test/e2e/run-folders.test.ts',
  'test/demo/browser-chat.test.ts',
  'test/scripts/benchmark-trials.test.ts',
  'test/tasks/verify-suite.test.ts',
  'test/export/view-bundle.test.ts',
  'test/faults/disk-full.test.ts',
  'test/scripts/trials-gate.test.ts',
  'test/cli/servers.test.ts',
];

export default class HeavyFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const root = this.ctx.config.root;
    const rank = (spec: TestSpecification): number => {
      const file = path.relative(root, spec.moduleId).split(path.sep).join('/');
      if (this.ctx.cache.getFileTestResults(`${spec.project.name}:${file}`)) return startFirst.length;
      const at = startFirst.indexOf(file);
      return at < 0 ? startFirst.length : at;
    };
    // Array.prototype.sort is stable: everything else keeps Vitest's order.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}
