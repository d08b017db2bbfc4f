// What a long run keeps per task (npm run bench:memory measures it): the prediction file keeps
// each record as the text it writes, serialised once, and a batch of many concurrent attempts
// adds one listener to the run's stop signal, not one per attempt, and leaves none behind.
// Real echo server over MCP stdio, real SQLite store, real files.
import { getEventListeners } from 'node:events';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentOptions } from '../../src/agent/options.js';
import { JsonFloat, stringifyKeepingFloats } from '../../src/core/json-numbers.js';
import type { ModelDriver } from '../../src/llm/types.js';
import { McpHost } from '../../src/mcp/index.js';
import { PredictionFile } from '../../src/runner/prediction-file.js';
import { runBatch } from '../../src/runner/run-batch.js';
import { StoreRecorder } from '../../src/runner/store-recorder.js';
import { createRun, openStore, type Store } from '../../src/store/index.js';
import type { PredictionRecord } from '../../src/tasks/schemas.js';
import { fixtureSpec } from '../support/fixture-servers/fixture-spec.js';
import { inProcessHost } from '../support/in-process-host.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'm3-retention-'));

function record(id: string, value: number | JsonFloat): PredictionRecord {
  return {
    id,
    question: `question ${id} with "quotes"\nand a newline, é 中 and a lone surrogate \ud800`,
    steps: [{ step: 1, calls: [{ name: 'math/add', arguments: { firstNumber: value, secondNumber: [1, new JsonFloat(2)] } }] }],
    final_reply: 'done',
  } as unknown as PredictionRecord;
}

describe('the prediction file keeps each record as its text', () => {
  it('writes exactly what serialising the whole array writes, floats included, and an empty file as []', async () => {
    const records = [record('a', new JsonFloat(2)), record('b', 3), record('c', new JsonFloat(0.5))];
    const file = new PredictionFile(path.join(dir, 'same.json'));
    file.save();
    expect(readFileSync(file.file, 'utf8')).toBe(`${stringifyKeepingFloats([], 2)}\n`);
    for (const item of records) file.put(item);
    file.saveSoon();
    await file.flush();
    expect(readFileSync(file.file, 'utf8')).toBe(`${stringifyKeepingFloats(records, 2)}\n`);
    expect(readFileSync(file.file, 'utf8')).toContain('"firstNumber": 2.0');
  });

  it('writes a record as it was put (it is serialised once, not again on every rewrite)', () => {
    const file = new PredictionFile(path.join(dir, 'once.json'));
    const item = record('a', 1);
    file.put(item);
    (item as { final_reply: string }).final_reply = 'changed after put';
    file.save();
    const written = JSON.parse(readFileSync(file.file, 'utf8')) as Array<{ final_reply: string }>;
    expect(written[0]?.final_reply).toBe('done');
  });

  it('gives the records back with their float arguments, and replaces a record put twice', () => {
    const file = new PredictionFile(path.join(dir, 'values.json'));
    file.put(record('a', 1));
    file.put(record('b', new JsonFloat(2)));
    file.put({ ...record('a', 5), final_reply: 'second' } as PredictionRecord);
    const values = file.values();
    expect(values.map((value) => value.id)).toEqual(['a', 'b']);
    expect(values[0]?.final_reply).toBe('second');
    const args = (values[1] as unknown as { steps: Array<{ calls: Array<{ arguments: { firstNumber: unknown } }> }> }).steps[0]?.calls[0]?.arguments;
    expect(args?.firstNumber).toBeInstanceOf(JsonFloat);
    expect(stringifyKeepingFloats(values)).toBe(stringifyKeepingFloats([{ ...record('a', 5), final_reply: 'second' }, record('b', new JsonFloat(2))]));
  });
});

describe('a batch of many concurrent attempts and the run stop signal', () => {
  let host: McpHost;
  let store: Store;
  beforeAll(async () => {
    host = await McpHost.start([fixtureSpec('echo')], { requireAll: true, connectServer: inProcessHost().connectServer });
    store = openStore(path.join(dir, 'store.sqlite'));
    createRun(store, { runId: 'r', modelSpec: 'script:x', modelLabel: 'x' });
  });
  afterAll(async () => {
    store?.close();
    await host?.close();
  });

  const options: AgentOptions = {
    maxStep: 3,
    maxConcurrent: 4,
    topTools: 0,
    maxNewTokens: 100,
    mergePrepareWork: true,
    skipEndStage: true,
    instructionRole: 'user',
    toolResultMaxChars: 0,
    imagePolicy: { recodeOverKb: 0, maxEdge: 0 },
    retry: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1, timeoutMs: 0 },
    toolCallTimeoutMs: 10_000,
    imageRoots: [dir],
  };
  const driver: ModelDriver = {
    id: 'script:x',
    provider: 'script',
    model: 'x',
    acceptsImages: true,
    async generate(request) {
      const called = request.messages.some((message) => message.role === 'tool');
      const usage = { inputTokens: 1, outputTokens: 1, cachedTokens: 0 };
      return called
        ? { text: 'done', toolCalls: [], stopReason: 'end', usage, latencyMs: 1, warnings: [] }
        : { text: '', toolCalls: [{ id: 'c', name: 'echo__echo', arguments: { text: 'hi' } }], stopReason: 'tool_calls', usage, latencyMs: 1, warnings: [] };
    },
    classifyError: (error) => ({ errorClass: 'fatal', message: String(error) }),
  };

  it('at concurrency 32 no listener-leak warning is raised and the run signal has no listener left', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
    process.on('warning', onWarning);
    const stop = new AbortController();
    const tasks = Array.from({ length: 64 }, (_, i) => ({ id: `t${i}`, image: undefined, type: undefined, tier: undefined, question: 'q' }));
    try {
      const result = await runBatch(
        tasks,
        { driver, host, options, root: dir, runId: 'r', workspaceMode: 'dedup', keepWorkspace: true, imageSearchDirs: [dir], taskTimeoutMs: 60_000 },
        {
          concurrency: 32,
          maxRequeue: 0,
          recorder: new StoreRecorder(store, 'r', 'script:x'),
          predictions: new PredictionFile(path.join(dir, 'batch.json')),
          signal: stop.signal,
        },
      );
      expect(result.progress.done).toBe(64);
      expect(result.failures).toEqual([]);
      // Warnings are emitted on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings.filter((warning) => warning.includes('MaxListenersExceeded'))).toEqual([]);
    expect(getEventListeners(stop.signal, 'abort')).toHaveLength(0);
  });
});
