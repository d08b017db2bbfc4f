// The README's offline recipe, run as the README writes it (the command text is parsed from
// README.md, so the two cannot drift): in a fresh copy of the checkout, with no M3_* switch of
// ours in its environment and, where `unshare -rn` works (CI runs as root), in a network
// namespace with no route out, so every web call fails as it would on a machine without network
// (DNS failure) and no loopback guard is involved. It must finish all 208 tasks with no
// infrastructure failure, every mocked call in the audit log. The wall time is printed, never
// asserted (`npm run bench:offline` measures it).
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { argumentsKey } from '../../src/fallback/argument-key.js';
import { readAudit } from '../support/fallback-kit.js';
import { canRunWithoutNetwork, freshCopy, printedPredictionFile, readmeOfflineCommand, startRecipe } from '../support/readme-offline.js';
import { sharedDataDir } from '../support/shared-assets.js';

const dataDir = sharedDataDir();
const offline = canRunWithoutNetwork();
const copies: string[] = [];
afterAll(() => {
  for (const copy of copies) rmSync(copy, { recursive: true, force: true });
});

interface PredictionRecord {
  id: string;
  steps: Array<{ calls: Array<{ name: string; arguments: unknown; fallback?: { tier: string; original_error_code?: string } }> }>;
}

describe.skipIf(!dataDir || !offline)(
  `the README's offline recipe, as written${offline ? '' : ' (skipped: unshare -rn is not available here, so no run without network)'}`,
  () => {
    it('runs all 208 tasks without network: no infrastructure failure, every mocked call audited', async () => {
      const recipe = readmeOfflineCommand();
      expect(recipe.text).toMatch(/--placeholder-images/);
      const copy = freshCopy(recipe, path.join(dataDir as string, 'test_mcp_GT.json'));
      copies.push(copy);
      const started = Date.now();
      const child = startRecipe(recipe, copy, true);
      let stdout = '';
      let stderr = '';
      child.stdout?.on('data', (chunk) => (stdout += String(chunk)));
      child.stderr?.on('data', (chunk) => (stderr += String(chunk)));
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      const wallS = (Date.now() - started) / 1000;
      expect(code, `${stdout.slice(-2000)}\n${stderr.slice(-4000)}`).toBe(0);

      const predictionsFile = printedPredictionFile(stdout, copy);
      const manifest = JSON.parse(readFileSync(predictionsFile.replace(/\.json$/i, '.manifest.json'), 'utf8')) as {
        counts: { tasks: number; done: number; infraFailures: number };
        failures: Array<{ taskId: string; code: string; message: string }>;
      };
      expect(manifest.counts.tasks).toBe(208);
      expect(manifest.failures, JSON.stringify(manifest.failures.slice(0, 5))).toEqual([]);
      expect(manifest.counts.infraFailures).toBe(0);

      // Every mocked call of the prediction file is in the audit log (the default M3_MOCK_DIR).
      const audit = readAudit(path.join(copy, 'tools', 'mock_runtime', 'logs', '_mock_calls.log'));
      const audited = new Map<string, number>();
      for (const entry of audit) {
        const key = `${entry.task} ${entry.server}/${entry.tool} ${entry.tier} ${argumentsKey(entry.arguments)}`;
        audited.set(key, (audited.get(key) ?? 0) + 1);
      }
      const predictions = JSON.parse(readFileSync(predictionsFile, 'utf8')) as PredictionRecord[];
      let mocked = 0;
      const realFailures = new Map<string, number>();
      for (const record of predictions) {
        for (const call of record.steps.flatMap((step) => step.calls).filter((entry) => entry.fallback)) {
          mocked += 1;
          const real = call.fallback?.original_error_code ?? 'none';
          realFailures.set(real, (realFailures.get(real) ?? 0) + 1);
          const key = `${record.id} ${call.name} ${call.fallback?.tier} ${argumentsKey(call.arguments)}`;
          const left = audited.get(key) ?? 0;
          expect(left, `mocked call not in the audit log: ${key}`).toBeGreaterThan(0);
          audited.set(key, left - 1);
        }
      }
      expect(mocked).toBeGreaterThan(0);
      // Fast by design: a web call without network fails at once (DNS failure) and is served then,
      // never after waiting out the tool-call timeout.
      expect(realFailures.get('tool_timeout') ?? 0, JSON.stringify([...realFailures])).toBe(0);
      const waits = stderr.split('\n').filter((line) => line.includes('waiting on')).length;
      process.stdout.write(
        `README offline recipe (${recipe.text}): exit ${code}, ${manifest.counts.tasks} tasks, ${mocked} mocked calls ` +
          `(real failures: ${[...realFailures].map(([real, count]) => `${real} ${count}`).join(', ')}), ` +
          `${waits} "waiting on" line(s), wall ${wallS.toFixed(1)} s (timing printed, not asserted; npm run bench:offline measures it)\n`,
      );
    }, 1_800_000);
  },
);
