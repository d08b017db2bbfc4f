// MCP-Universe's weather example end to end: `m3 bench examples/mcp-universe/benchmark.yaml` (in
// this process: test/support/m3-in-process.ts), the seed's task file as written
// (examples/mcp-universe/weather.json) mixed with an M3-Bench task file, our `weather` server over
// MCP stdio against a loopback fake of the Open-Meteo geocoder and forecast, a scripted mock LLM
// answering in ReAct text actions; then `m3 eval task` runs the task's own evaluator from the
// prediction record, and it passes.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openMeteoEnv, useOpenMeteoAndMockLlm } from '../support/open-meteo-fake.js';
import { runTaskFiles } from '../../src/eval/task/run.js';
import type { MockTurn, RecordedRequest } from '../support/mock-llm/index.js';
import { runM3InProcess } from '../support/m3-in-process.js';
import { repoRoot } from '../support/shared-assets.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'm3-universe-'));
const example = path.join(repoRoot, 'examples', 'mcp-universe');
const predFile = path.join(dir, 'results', 'mock-model_test_mcp_fuzzy.json');

type Chat = { messages: Array<{ role: string; content: unknown }> };
const textOf = (request: RecordedRequest) => JSON.stringify((request.body as Chat).messages);
const systemOf = (request: RecordedRequest) => String((request.body as Chat).messages[0]?.content);
const apiKey = 'sk-test-universe-0000000000000000';
const action = (calls: unknown[], thought = 'look it up.') => `Thought: ${thought}\nAction:\n\`\`\`json\n${JSON.stringify(calls)}\n\`\`\``;

/** The scripted model: per task (told apart by its question), one action round, then the answer. */
function respond(request: RecordedRequest): MockTurn {
  const text = textOf(request);
  const observed = text.includes('Observation:');
  if (text.includes('San Francisco')) {
    if (!observed)
      return {
        text: action(
          [
            { tool: 'weather/get_weather', arguments: { location: 'San Francisco, CA' } },
            // Not offered to this task (its mcp_servers name only weather): refused as unknown.
            { tool: 'math/add', arguments: { firstNumber: 1, secondNumber: 2 } },
          ],
          `a model that echoes its key ${apiKey} must not leak it.`,
        ),
      };
    return { text: 'Thought: done.\nFinal Answer: {"city": "San Francisco", "weather": "58.3°F, wind 9.4 mph, overcast"}' };
  }
  if (!observed) return { text: action([{ tool: 'math/add', arguments: { firstNumber: 17, secondNumber: 25 } }]) };
  return { text: 'Final Answer: 17 plus 25 is 42.' };
}

const servers = useOpenMeteoAndMockLlm(respond);

describe('MCP-Universe weather task', () => {
  it('runs as written against our weather server, mixed with an M3-Bench task, and its evaluator passes', async () => {
    const run = await runM3InProcess(
      ['bench', path.join(example, 'benchmark.yaml'), '--run-dir', path.join(dir, 'results'), '--run-id', 'universe', '--trace-file', '--verbose'],
      {
        OPENAI_BASE_URL: servers.mock().openAiBaseUrl,
        OPENAI_API_KEY: apiKey,
        BENCH_MODEL: 'mock-model',
        ...openMeteoEnv(servers.fake()),
      },
    );
    expect(run.code, run.output).toBe(0);

    // --verbose: the steps of both tasks on stderr, the echoed key masked.
    expect(run.stderr).toContain('[weather] call weather/get_weather {"location":"San Francisco, CA"}');
    expect(run.stderr).toContain('[weather] result weather/get_weather: Current weather in San Francisco, CA: 58.3°F, wind 9.4 mph, code 3.');
    expect(run.stderr).toContain('[weather] error (unknown_tool) math/add: [Tool error] Unknown tool: math/add');
    expect(run.stderr).toContain('[sum-1] final answer after 1 round(s): 17 plus 25 is 42.');
    expect(run.stderr).toMatch(/\[weather\] model work: Thought: a model that echoes its key .*REDACTED/);
    expect(run.output).not.toContain(apiKey);

    // --trace-file: one JSONL per run, every event in order with a timestamp, the key masked.
    const traceText = readFileSync(path.join(dir, 'results', 'mock-model.trace.jsonl'), 'utf8');
    expect(traceText).not.toContain(apiKey);
    const trace = traceText
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { seq: number; ts: string; runId: string; event: { type: string; taskId: string; name?: string } });
    expect(trace.map((record) => record.seq)).toEqual(trace.map((_, index) => index + 1));
    expect(trace.every((record) => record.runId === 'universe.mock-model' && !Number.isNaN(Date.parse(record.ts)))).toBe(true);
    expect(
      trace.filter((record) => record.event.taskId === 'weather').map((record) => record.event.type + (record.event.name ? ` ${record.event.name}` : '')),
    ).toEqual([
      'episode_start',
      'round_start',
      'model_call',
      'tool_call_start weather/get_weather',
      'tool_call_start math/add',
      'tool_call_end math/add',
      'tool_call_end weather/get_weather',
      'round_start',
      'model_call',
      'final',
      'task_end',
    ]);

    const predictions = JSON.parse(readFileSync(predFile, 'utf8')) as Array<Record<string, unknown> & { id: string; steps: Array<{ calls: unknown[] }> }>;
    const weather = predictions.find((record) => record.id === 'weather');
    const sum = predictions.find((record) => record.id === 'sum-1');
    expect(weather).toMatchObject({
      category: 'general',
      mcp_servers: ['weather'],
      task_file: path.join(example, 'weather.json'),
      evaluators: [{ func: 'json -> get(city)', op: '=', value: 'San Francisco', target: 'answer' }],
      final_reply: '{"city": "San Francisco", "weather": "58.3°F, wind 9.4 mph, overcast"}',
    });
    expect(String(weather?.question)).toContain('Give the final answer as JSON of this shape');
    const weatherCalls = weather?.steps[0]?.calls as Array<{ name: string; result: string; error_code?: string }>;
    expect(weatherCalls.map((call) => [call.name, call.result, call.error_code])).toEqual([
      ['weather/get_weather', 'Current weather in San Francisco, CA: 58.3°F, wind 9.4 mph, code 3.', undefined],
      ['math/add', '[Tool error] Unknown tool: math/add', 'unknown_tool'],
    ]);
    expect(sum).not.toHaveProperty('mcp_servers');
    expect((sum?.steps[0]?.calls as Array<{ name: string; result: string }>).map((call) => [call.name, call.result])).toEqual([['math/add', '42']]);

    // The tool surface: the weather task was offered weather only, the M3-Bench task both servers.
    const requests = servers.mock().generations();
    const weatherSystem = requests.filter((request) => textOf(request).includes('San Francisco')).map(systemOf);
    const sumSystem = requests.filter((request) => textOf(request).includes('17 plus 25')).map(systemOf);
    expect(weatherSystem.length).toBeGreaterThan(0);
    expect(weatherSystem.every((system) => system.includes('weather/get_weather') && !system.includes('math/add'))).toBe(true);
    expect(sumSystem.every((system) => system.includes('weather/get_weather') && system.includes('math/add'))).toBe(true);
    expect(
      servers
        .fake()
        .requestsTo('/geo/v1/search')
        .map((request) => request.query.name),
    ).toEqual(['San Francisco']);

    const evaluated = await runM3InProcess([
      'eval',
      'task',
      '--pred',
      predFile,
      '--gt',
      path.join(example, 'math-tasks.json'),
      '--out',
      path.join(dir, 'eval'),
    ]);
    expect(evaluated.code, evaluated.output).toBe(0);
    const document = JSON.parse(readFileSync(path.join(dir, 'eval', 'task_eval.json'), 'utf8')) as {
      per_task: Array<{ id: string; success: boolean; success_rule: string; checks: Array<{ passed: boolean; actual?: unknown }> }>;
    };
    const byId = new Map(document.per_task.map((record) => [record.id, record]));
    expect(byId.get('weather')).toMatchObject({ success: true, success_rule: 'checks', checks: [{ passed: true, actual: 'San Francisco' }] });
    expect(byId.get('sum-1')).toMatchObject({ success: true, checks: [{ passed: true }] });
  }, 240_000);

  it('fails the same evaluator when the answer names another city', async () => {
    const records = JSON.parse(readFileSync(predFile, 'utf8')) as Array<{ id: string; final_reply: string }>;
    const changed = records.map((record) => (record.id === 'weather' ? { ...record, final_reply: '{"city": "Oakland", "weather": "sunny"}' } : record));
    const file = path.join(dir, 'changed_test_mcp_fuzzy.json');
    writeFileSync(file, JSON.stringify(changed));
    const { document } = await runTaskFiles({ predFile: file, outputDir: path.join(dir, 'changed'), manifestFile: path.join(dir, 'none.json') });
    expect(document.per_task.map((record) => [record.id, record.success, record.checks[0]?.reason])).toEqual([
      ['weather', false, '"Oakland" not = "San Francisco"'],
    ]);
  });
});
