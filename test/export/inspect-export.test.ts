// The inspect_ai export of a stored run, validated against inspect's own published log schema
// (test/fixtures/inspect-ai/log-schema.json, source named in SOURCE.md) with ajv: one sample per
// task, the question, the assistant turn with its tool calls, each tool result (the failing one
// as an error, the mocked one with its tier), the final reply as the output, the step metrics of
// the run's results_eval.json as scores and their means as results, token usage as stats.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { exportRun } from '../../src/export/run-export.js';
import { registerSecret } from '../../src/log/redact.js';
import { lateSecret, storedRunId, writeStoredRun, type StoredRun } from './stored-run.js';

const schemaFile = path.join(import.meta.dirname, '..', 'fixtures', 'inspect-ai', 'log-schema.json');

let compiled: ReturnType<Ajv2020['compile']> | undefined;

/** Compiled once: the schema is large. */
function validator() {
  if (compiled) return compiled;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  ajv.addFormat('date-time', (value: string) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(value));
  compiled = ajv.compile(JSON.parse(readFileSync(schemaFile, 'utf8')) as object);
  return compiled;
}

/** What `m3 eval step` writes for the run's label (only the fields the export reads). */
function writeStepResults(resultsDir: string) {
  const metrics = { avg_sim_all_cov: 0.8, avg_sim_strong_cov: 0.8, step_coherence_cov: 1, order_consistency_cov: 1, merge_purity_cov: 1 };
  const perId = [
    { id: 'T1', total_gt_calls: 2, total_pred_calls: 2, matched: 1, recall: 0.5, precision: 0.5, ...metrics, details: {} },
    { id: 'T2', total_gt_calls: 1, total_pred_calls: 0, matched: 0, recall: 0, precision: 0, ...metrics, details: {} },
  ];
  mkdirSync(path.join(resultsDir, 'gpt-4o'), { recursive: true });
  writeFileSync(path.join(resultsDir, 'gpt-4o', 'results_eval.json'), JSON.stringify({ aggregate: {}, per_id: perId }));
}

describe('m3 runs export --inspect', () => {
  let run: StoredRun;
  beforeEach(() => {
    run = writeStoredRun();
  });
  afterEach(() => run.cleanup());

  it('writes an eval log valid against inspect_ai log schema, with messages, tool calls and scores', async () => {
    writeStepResults(run.dir);
    const file = path.join(run.dir, 'run.json');
    const lines = await exportRun({ storeFile: run.file, runId: storedRunId, inspect: file, resultsDir: run.dir });
    expect(lines[0]).toMatch(
      /^inspect: 2 sample\(s\) of run export-run in .*run\.json \(\d+ bytes, inspect eval log v2\); means: recall 0\.250 over 2, precision 0\.250 over 2/,
    );
    const log = JSON.parse(readFileSync(file, 'utf8'));
    const validate = validator();
    const valid = validate(log);
    expect(validate.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
    expect(log.eval).toMatchObject({ run_id: storedRunId, model: 'openai/gpt-4o', dataset: { samples: 2, sample_ids: ['T1', 'T2'] } });
    expect(log.status).toBe('success');
    expect(log.stats.model_usage['openai/gpt-4o']).toMatchObject({ input_tokens: 320, output_tokens: 40, input_tokens_cache_read: 64 });
    const [ok, failed] = log.samples;
    expect(ok.input).toBe('What is 2+3? Then read the code.');
    expect(ok.messages.map((message: { role: string }) => message.role)).toEqual(['user', 'assistant', 'tool', 'tool', 'assistant']);
    const [, asked, added, weather, answer] = ok.messages;
    expect(asked.tool_calls.map((call: { function: string; arguments: unknown }) => [call.function, call.arguments])).toEqual([
      ['math/add', { a: 2, b: 3 }],
      ['weather/get_weather', { location: 'Boston' }],
    ]);
    expect(added).toMatchObject({ tool_call_id: asked.tool_calls[0].id, content: '5', error: null });
    expect(weather).toMatchObject({ tool_call_id: asked.tool_calls[1].id, error: { type: 'unknown' }, metadata: { m3bench_fallback_tier: 'simulator' } });
    expect(answer.content).toBe('The sum is 5.');
    expect(ok.output).toMatchObject({ completion: 'The sum is 5.', error: null });
    expect(ok.scores.recall.value).toBe(0.5);
    expect(ok.scores.success).toBeUndefined();
    expect(ok.metadata.m3bench_mocked_calls).toEqual([{ tool: 'weather/get_weather', round: 1, tier: 'simulator', real_error: 'connection_refused' }]);
    expect(failed).toMatchObject({ id: 'T2', epoch: 1, error: null, metadata: { m3bench_status: 'model_failure' } });
    expect(failed.output.error).toMatch(/^bad tool schema \(request /);
    expect(log.results.scores.map((score: { name: string }) => score.name)).toEqual([
      'recall',
      'precision',
      'avg_sim_all_cov',
      'step_coherence_cov',
      'order_consistency_cov',
    ]);
  });

  it('exports a run not evaluated yet without scores, still valid', async () => {
    const file = path.join(run.dir, 'bare.json');
    const lines = await exportRun({ storeFile: run.file, runId: storedRunId, inspect: file, resultsDir: path.join(run.dir, 'none') });
    expect(lines[0]).toMatch(/means: none \(run not evaluated/);
    const log = JSON.parse(readFileSync(file, 'utf8'));
    const validate = validator();
    expect(validate(log) ? [] : validate.errors).toEqual([]);
    expect(log.samples[0].scores).toBeNull();
  });

  it('masks a secret registered after the store was written', async () => {
    registerSecret(lateSecret);
    const file = path.join(run.dir, 'masked.json');
    await exportRun({ storeFile: run.file, runId: storedRunId, inspect: file, resultsDir: run.dir });
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('bad tool schema (request ');
    expect(text).not.toContain(lateSecret);
  });

  it('the schema check can fail: a sample without messages is rejected', async () => {
    const file = path.join(run.dir, 'broken.json');
    await exportRun({ storeFile: run.file, runId: storedRunId, inspect: file, resultsDir: run.dir });
    const log = JSON.parse(readFileSync(file, 'utf8'));
    delete log.samples[0].messages;
    expect(validator()(log)).toBe(false);
  });
});
