// npm run bench:harness — measured side by side in one run (not a test):
//  1. harness overhead per tool round-trip: the agent loop (replay model + math server) versus a
//     bare MCP SDK client calling the same server; ratio target <= 1.3.
//  2. batch throughput with a driver that sleeps 200 ms per request, at concurrency 1, 4, 16,
//     as efficiency = ideal time / measured time; target >= 0.85 at 16.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { runEpisode } from '../../src/agent/episode.js';
import type { AgentOptions } from '../../src/agent/options.js';
import { emptyUsage } from '../../src/core/usage.js';
import { fromRepo, repoRoot } from '../../src/config/paths.js';
import { createReplayDriver } from '../../src/llm/replay/driver.js';
import type { ModelDriver } from '../../src/llm/types.js';
import { McpHost } from '../../src/mcp/index.js';
import { PredictionFile } from '../../src/runner/prediction-file.js';
import { runBatch } from '../../src/runner/run-batch.js';
import { StoreRecorder } from '../../src/runner/store-recorder.js';
import { createRun, openStore } from '../../src/store/index.js';
import type { GtTask } from '../../src/tasks/schemas.js';

const mathArgs = ['--import', 'tsx', fromRepo('servers/math/index.ts')];
const rounds = 200;
const options: AgentOptions = {
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

async function bareClientMs(calls: number): Promise<number> {
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: mathArgs, cwd: repoRoot, stderr: 'ignore' }));
  for (let i = 0; i < 20; i += 1) await client.callTool({ name: 'add', arguments: { firstNumber: i, secondNumber: 1 } });
  const started = performance.now();
  for (let i = 0; i < calls; i += 1) await client.callTool({ name: 'add', arguments: { firstNumber: i, secondNumber: 1 } });
  const elapsed = performance.now() - started;
  await client.close();
  return elapsed / calls;
}

/** Realistic episodes: 50 tasks of 4 rounds each, one call per round, timed per round. */
async function harnessMs(host: McpHost): Promise<number> {
  const episodes = rounds / 4;
  const tasks = new Map<string, GtTask>();
  for (let e = 0; e < episodes; e += 1) {
    const steps = Array.from({ length: 4 }, (_, i) => ({ step: i + 1, calls: [{ name: 'math/add', arguments: { firstNumber: e, secondNumber: i } }] }));
    tasks.set(`t${e}`, { id: `t${e}`, question: 'add', final_reply: 'done', steps });
  }
  const driver = await createReplayDriver('gt', { env: {}, groundTruth: tasks, timeoutMs: 0 });
  const input = (id: string) => ({
    taskId: id,
    question: 'add',
    userText: 'add',
    images: [],
    cwd: repoRoot,
    callContext: { taskId: id, workspace: path.join(repoRoot, 'media') },
  });
  for (let e = 0; e < 5; e += 1) await runEpisode(input(`t${e}`), { driver, host, options }); // warm-up
  const started = performance.now();
  for (let e = 0; e < episodes; e += 1) {
    const trace = await runEpisode(input(`t${e}`), { driver, host, options });
    if (trace.rounds.length !== 4) throw new Error(`expected 4 rounds, got ${trace.rounds.length}`);
  }
  return (performance.now() - started) / rounds;
}

function sleepingDriver(ms: number): ModelDriver {
  return {
    id: 'sleep:200ms',
    provider: 'sleep',
    model: '200ms',
    acceptsImages: true,
    async generate(request) {
      await new Promise((resolve) => setTimeout(resolve, ms));
      const called = request.messages.some((message) => message.role === 'tool');
      return called
        ? { text: 'done', toolCalls: [], stopReason: 'end', usage: emptyUsage(), latencyMs: ms, warnings: [] }
        : {
            text: '',
            toolCalls: [{ id: 'c', name: 'math__add', arguments: { firstNumber: 1, secondNumber: 2 } }],
            stopReason: 'tool_calls',
            usage: emptyUsage(),
            latencyMs: ms,
            warnings: [],
          };
    },
    classifyError: (error) => ({ errorClass: 'fatal', message: String(error) }),
  };
}

async function throughput(host: McpHost, concurrency: number, tasks: number, requestMs: number): Promise<{ seconds: number; efficiency: number }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'm3-bench-'));
  const store = openStore(path.join(dir, 'store.sqlite'));
  const runId = `bench-${concurrency}`;
  createRun(store, { runId, modelSpec: 'sleep:200ms', modelLabel: 'sleep' });
  const list = Array.from({ length: tasks }, (_, i) => ({ id: `t${i}`, image: undefined, type: undefined, tier: undefined, question: 'q' }));
  const started = performance.now();
  await runBatch(
    list,
    {
      driver: sleepingDriver(requestMs),
      host,
      options,
      root: dir,
      runId,
      workspaceMode: 'dedup',
      keepWorkspace: true,
      imageSearchDirs: [dir],
      taskTimeoutMs: 0,
    },
    {
      concurrency,
      maxRequeue: 0,
      recorder: new StoreRecorder(store, runId, 'sleep:200ms'),
      predictions: new PredictionFile(path.join(dir, 'p.json')),
    },
  );
  const seconds = (performance.now() - started) / 1000;
  store.close();
  const ideal = (Math.ceil(tasks / concurrency) * 2 * requestMs) / 1000; // two model requests per task
  return { seconds, efficiency: ideal / seconds };
}

const host = await McpHost.start([{ name: 'math', transport: 'stdio', command: process.execPath, args: mathArgs, env: {}, headers: {}, cwd: repoRoot }], {
  requireAll: true,
});
try {
  const bare = await bareClientMs(rounds);
  const harness = await harnessMs(host);
  process.stdout.write('harness overhead per tool round-trip (math/add)\n');
  process.stdout.write(`  bare MCP SDK client : ${bare.toFixed(3)} ms/call\n`);
  process.stdout.write(`  m3bench agent loop  : ${harness.toFixed(3)} ms/round (replay model + call + records)\n`);
  process.stdout.write(`  ratio               : ${(harness / bare).toFixed(2)} (target <= 1.3)\n\n`);
  process.stdout.write('batch throughput, driver sleeping 200 ms per request (2 requests + 1 tool call per task)\n');
  for (const concurrency of [1, 4, 16]) {
    const tasks = concurrency === 1 ? 8 : concurrency * 4;
    const { seconds, efficiency } = await throughput(host, concurrency, tasks, 200);
    process.stdout.write(
      `  concurrency ${String(concurrency).padStart(2)}: ${tasks} tasks in ${seconds.toFixed(2)} s, efficiency ${efficiency.toFixed(2)}${concurrency === 16 ? ' (target >= 0.85)' : ''}\n`,
    );
  }
} finally {
  await host.close();
}
