// What the harness and memory benchmarks share: the agent options of a plain run, the math server
// as a real stdio MCP server, a scripted model (one tool call, then the answer), a batch over a
// real SQLite store with its prediction file, and the machine-load line every figure is printed
// with (2 shared cores: a number without the load beside it means little).
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AgentOptions } from '../../src/agent/options.js';
import type { ServerSpec } from '../../src/config/servers.js';
import { fromRepo, repoRoot } from '../../src/config/paths.js';
import { emptyUsage } from '../../src/core/usage.js';
import type { GenerateRequest, ModelDriver } from '../../src/llm/types.js';
import { McpHost } from '../../src/mcp/index.js';
import { PredictionFile } from '../../src/runner/prediction-file.js';
import type { RunRecorder } from '../../src/runner/recorder.js';
import { type BatchOptions, type BatchResult, runBatch } from '../../src/runner/run-batch.js';
import { StoreRecorder } from '../../src/runner/store-recorder.js';
import { createRun, openStore, type Store } from '../../src/store/index.js';

export const mathArgs = ['--import', 'tsx', fromRepo('servers/math/index.ts')];

export const benchOptions: AgentOptions = {
  maxStep: 6,
  maxConcurrent: 10,
  topTools: 0,
  maxNewTokens: 100,
  mergePrepareWork: true,
  skipEndStage: true,
  instructionRole: 'user',
  toolResultMaxChars: 2000,
  imagePolicy: { recodeOverKb: 512, maxEdge: 1568 },
  retry: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1, timeoutMs: 0 },
  toolCallTimeoutMs: 60_000,
  imageRoots: [fromRepo('media')],
};

export function startMathHost(): Promise<McpHost> {
  const spec: ServerSpec = { name: 'math', transport: 'stdio', command: process.execPath, args: mathArgs, env: {}, headers: {}, cwd: repoRoot };
  return McpHost.start([spec], { requireAll: true });
}

export function loadLine(): string {
  const [one = 0, five = 0, fifteen = 0] = os.loadavg();
  return `load average ${one.toFixed(2)} / ${five.toFixed(2)} / ${fifteen.toFixed(2)} on ${os.cpus().length} cores`;
}

const pause = (ms: number) => new Promise<void>((resolve) => (ms > 0 ? setTimeout(resolve, ms) : setImmediate(resolve)));

/**
 * A model that waits `ms` per request, asks for `math/add` in its first round and answers after
 * it; the raw exchange it reports (messages and tool names) is what a vendor driver hands the
 * store, so the row writes have a realistic size.
 */
export function scriptedDriver(ms: number): ModelDriver {
  return {
    id: `sleep:${ms}ms`,
    provider: 'sleep',
    model: `${ms}ms`,
    acceptsImages: true,
    async generate(request: GenerateRequest) {
      await pause(ms);
      const called = request.messages.some((message) => message.role === 'tool');
      const raw = { request: { messages: request.messages, tools: request.tools.map((tool) => tool.name) }, response: { called } };
      return called
        ? { text: 'done', toolCalls: [], stopReason: 'end', usage: emptyUsage(), latencyMs: ms, warnings: [], raw }
        : {
            text: '',
            toolCalls: [{ id: 'c', name: 'math__add', arguments: { firstNumber: 1, secondNumber: 2 } }],
            stopReason: 'tool_calls',
            usage: emptyUsage(),
            latencyMs: ms,
            warnings: [],
            raw,
          };
    },
    classifyError: (error) => ({ errorClass: 'fatal', message: String(error) }),
  };
}

export interface BenchBatch {
  dir: string;
  store: Store;
  runId: string;
  recorder: StoreRecorder;
  predictions: PredictionFile;
}

/** A fresh temp folder with a migrated store, a run row, its recorder and prediction file. */
export function openBenchBatch(label: string, model: string): BenchBatch {
  const dir = mkdtempSync(path.join(os.tmpdir(), `m3-bench-${label}-`));
  const store = openStore(path.join(dir, 'store.sqlite'), { groupCommit: true });
  const runId = `bench-${label}`;
  createRun(store, { runId, modelSpec: model, modelLabel: model });
  return { dir, store, runId, recorder: new StoreRecorder(store, runId, model), predictions: new PredictionFile(path.join(dir, 'p.json')) };
}

/** `count` question-only tasks named t0..t<count-1> with a prefix. */
export function benchTasks(count: number, prefix = 't') {
  return Array.from({ length: count }, (_, i) => ({ id: `${prefix}${i}`, image: undefined, type: undefined, tier: undefined, question: 'q' }));
}

/** Runs the tasks through the runner's batch, as `m3 run` does (dedup workspaces, no budget). */
export function runBenchBatch(
  batch: BenchBatch,
  host: McpHost,
  driver: ModelDriver,
  tasks: ReturnType<typeof benchTasks>,
  options: Omit<BatchOptions, 'maxRequeue' | 'recorder' | 'predictions'> & { recorder?: RunRecorder },
): Promise<BatchResult> {
  return runBatch(
    tasks,
    {
      driver,
      host,
      options: benchOptions,
      root: batch.dir,
      runId: batch.runId,
      workspaceMode: 'dedup',
      keepWorkspace: true,
      imageSearchDirs: [batch.dir],
      taskTimeoutMs: 0,
    },
    { maxRequeue: 0, recorder: batch.recorder, predictions: batch.predictions, ...options },
  );
}
