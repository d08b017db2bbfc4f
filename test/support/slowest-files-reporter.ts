// A Vitest reporter that lists the slowest test files when the run ends, so a file that grows slow
// is seen in every run (CI's log included) instead of only in the total.
import path from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

const shown = 20;

/** Seconds a file held a worker: importing it (collect) plus its tests and hooks. */
function secondsOf(module: TestModule): number {
  const diagnostic = module.diagnostic();
  return (diagnostic.collectDuration + diagnostic.duration) / 1000;
}

export default class SlowestFilesReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const timed = testModules
      .map((module) => ({ file: path.relative(process.cwd(), module.moduleId), seconds: secondsOf(module) }))
      .filter((entry) => entry.seconds > 0)
      .sort((a, b) => b.seconds - a.seconds)
      .slice(0, shown);
    if (timed.length === 0) return;
    const lines = timed.map((entry) => `${entry.seconds.toFixed(1).padStart(7)} s  ${entry.file}`);
    process.stdout.write(`\nSlowest ${timed.length} test files (import + tests, per file):\n${lines.join('\n')}\n`);
  }
}
