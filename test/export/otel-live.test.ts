// Live traces: `m3 run` (the GT replay over one bundled local task, with the real math and
// pyzbar servers) with OTEL_EXPORTER_OTLP_ENDPOINT pointing at a loopback receiver sends the
// episode's trace while it runs: one trace, its invoke_agent root, a chat span per model request
// and an execute_tool span per tool call under it, the same spans `m3 runs export --otlp-file`
// writes from the store afterwards; the run logs how many spans the collector accepted. The run
// and the export run in this process (test/support/m3-in-process.ts, the environment overlay
// applied for the call, as a child would read it): the spans the receiver gets, the log line and
// the file written are the point, not the process. The servers are real children.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { listRuns, openStore } from '../../src/store/index.js';
import { runM3InProcess } from '../support/m3-in-process.js';
import { repoRoot } from '../support/shared-assets.js';
import { attributes, type OtlpRequest, type OtlpSpan, spansOf, startReceiver } from './otlp-receiver.js';

const readJson = (file: string) => JSON.parse(readFileSync(file, 'utf8'));

function writeSubset(dir: string): { tasks: string; gt: string; servers: string } {
  const pick = (file: string) => (readJson(path.join(repoRoot, file)) as Array<{ id: string }>).filter((task) => task.id === 'L0012');
  const files = { tasks: path.join(dir, 'tasks.json'), gt: path.join(dir, 'gt.json'), servers: path.join(dir, 'servers.json') };
  writeFileSync(files.tasks, JSON.stringify(pick('json/m3_local_tasks.json')));
  writeFileSync(files.gt, JSON.stringify(pick('json/m3_local_GT.json')));
  const config = readJson(path.join(repoRoot, 'mcp_servers.json')) as { servers: Record<string, unknown> };
  writeFileSync(
    files.servers,
    JSON.stringify({ ...config, servers: Object.fromEntries(Object.entries(config.servers).filter(([name]) => name === 'math' || name === 'pyzbar-mcp')) }),
  );
  return files;
}

const shape = (spans: OtlpSpan[]) => {
  const root = spans.find((span) => !span.parentSpanId);
  return {
    root: root?.name,
    children: spans.filter((span) => span.parentSpanId === root?.spanId).map((span) => [span.name, attributes(span)['gen_ai.operation.name']]),
    orphans: spans.filter((span) => span.parentSpanId && span.parentSpanId !== root?.spanId).length,
  };
};

describe('m3 run with OTEL_EXPORTER_OTLP_ENDPOINT', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'm3-otel-live-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('sends each episode trace during the run, the same spans the store export writes', async () => {
    const receiver = await startReceiver();
    try {
      const files = writeSubset(dir);
      const resultsDir = path.join(dir, 'results');
      const args = [
        'run',
        '--model',
        'replay:gt',
        '--tasks',
        files.tasks,
        '--gt',
        files.gt,
        '--image-dir',
        path.join(repoRoot, 'media'),
        '--config',
        files.servers,
      ];
      const finished = await runM3InProcess([...args, '--run-dir', resultsDir, '--overwrite'], { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url });
      expect(finished.code, finished.output).toBe(0);
      const { stderr } = finished;
      const live = spansOf(receiver.bodies);
      expect(new Set(live.map((span) => span.traceId)).size).toBe(1);
      const seen = shape(live);
      expect(seen.root).toBe('invoke_agent L0012');
      expect(seen.orphans).toBe(0);
      expect(seen.children.filter(([, operation]) => operation === 'execute_tool').map(([name]) => name)).toEqual([
        'execute_tool pyzbar-mcp/scan_barcode',
        'execute_tool math/multiply',
      ]);
      expect(seen.children.filter(([, operation]) => operation === 'chat').length).toBeGreaterThan(0);
      expect(stderr).toContain(`otlp: 1 trace(s), ${live.length} of ${live.length} span(s) accepted by ${receiver.url}/v1/traces`);
      const store = openStore(path.join(resultsDir, 'm3bench.sqlite'), { readonly: true });
      const runId = listRuns(store)[0]!.runId;
      store.close();
      const file = path.join(dir, 'after.json');
      const exported = await runM3InProcess(['runs', 'export', runId, '--store', path.join(resultsDir, 'm3bench.sqlite'), '--otlp-file', file]);
      expect(exported.code, exported.output).toBe(0);
      expect(shape(spansOf([readJson(file) as OtlpRequest]))).toEqual(seen);
    } finally {
      await receiver.close();
    }
  }, 300_000);
});
