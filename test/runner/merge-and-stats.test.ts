import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LlmStats } from '../../src/runner/llm-stats.js';
import { mergePredictionFiles } from '../../src/runner/merge.js';
import { selectShard } from '../../src/runner/task-set.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'm3-merge-'));
const record = (id: string, reply = `reply ${id}`) => ({ id, question: 'q', steps: [], num_step: 0, max_num_concurrent: 0, final_reply: reply, dialogue: [] });

describe('m3 merge', () => {
  it('combines disjoint shard files into one file sorted by id', () => {
    const tasks = ['t3', 't1', 't4', 't2', 't5'].map((id) => ({ id }));
    const files = [1, 2].map((index) => {
      const file = path.join(dir, `shard-${index}.json`);
      writeFileSync(file, JSON.stringify(selectShard(tasks, { index, count: 2 }).map((task) => record(task.id))));
      return file;
    });
    const output = path.join(dir, 'merged.json');
    const result = mergePredictionFiles(files, output);
    expect(result.records).toBe(5);
    expect((JSON.parse(readFileSync(output, 'utf8')) as Array<{ id: string }>).map((entry) => entry.id)).toEqual(['t1', 't2', 't3', 't4', 't5']);
  });

  it('refuses a task that two shards answered differently, naming both files', () => {
    const a = path.join(dir, 'a.json');
    const b = path.join(dir, 'b.json');
    writeFileSync(a, JSON.stringify([record('x', 'one')]));
    writeFileSync(b, JSON.stringify([record('x', 'two')]));
    expect(() => mergePredictionFiles([a, b], path.join(dir, 'clash.json'))).toThrowError(/task x appears in both .*a\.json and .*b\.json/);
    expect(existsSync(path.join(dir, 'clash.json'))).toBe(false);
  });
});

describe('LLM stats counters', () => {
  it('flushes every N requests so a killed run still leaves numbers, and counts tool images', () => {
    const file = path.join(dir, 'stats.json');
    const stats = new LlmStats(file, 2, (billed) => ({ paidUsd: billed.standard.inputTokens * 0.001, listUsd: 0, savedByCacheUsd: 0, savedByBatchUsd: 0 }));
    const call = {
      type: 'model_call' as const,
      taskId: 't',
      round: 1,
      purpose: 'work' as const,
      usage: { inputTokens: 10, outputTokens: 5, cachedTokens: 2 },
      latencyMs: 1,
      attempts: [],
      text: '',
      toolCallCount: 0,
      warnings: [],
      imagePayload: { count: 0, bytes: 0, estimatedTokens: 0 },
      images: [],
      request: null,
      response: null,
    };
    stats.observe(call);
    expect(existsSync(file)).toBe(false);
    stats.observe({
      ...call,
      attempts: [
        { attempt: 1, startedAt: 0, latencyMs: 1, ok: false },
        { attempt: 2, startedAt: 0, latencyMs: 1, ok: true },
      ],
    });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({
      requests: 2,
      attempts: 2,
      inputTokens: 20,
      outputTokens: 10,
      cachedTokens: 4,
      costUsd: 0.02,
    });
    stats.observe({
      type: 'tool_call_end',
      taskId: 't',
      round: 1,
      index: 0,
      callId: 'c',
      name: 'x/y',
      functionName: 'x__y',
      arguments: {},
      result: 'r',
      isError: true,
      durationMs: 1,
      images: [{ mediaType: 'image/jpeg', source: 's', originalBytes: 1000, sentBytes: 200, width: 10, height: 10, originalMediaType: 'image/png' }],
    });
    stats.flush();
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({
      toolCalls: 1,
      toolErrors: 1,
      imagesFromTools: 1,
      imageBytesOriginal: 1000,
      imageBytesSent: 200,
    });
  });
});
