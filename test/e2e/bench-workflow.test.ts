// MCP-Universe's orchestrator workflow end to end: `m3 bench examples/mcp-universe/workflow.yaml`
// (in this process: test/support/m3-in-process.ts) over the seed's weather task, our `weather`
// server over MCP stdio against a loopback fake of Open-Meteo, the mock LLM scripted per agent (the
// orchestrator plans two subtasks, the basic agent answers, the function-call agent calls the
// weather tool, the orchestrator composes). Checked: the prediction's one trajectory and workflow
// record, the manifest's workflow hash, the store rows as `m3 runs show` prints them, the trace
// file's agent names, and the task's own evaluator on the composed answer.
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openMeteoEnv, useOpenMeteoAndMockLlm } from '../support/open-meteo-fake.js';
import { runTaskFiles } from '../../src/eval/task/run.js';
import type { MockTurn, RecordedRequest } from '../support/mock-llm/index.js';
import { runM3InProcess } from '../support/m3-in-process.js';
import { repoRoot } from '../support/shared-assets.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'm3-bench-workflow-'));
const resultsDir = path.join(dir, 'results');
const exampleFile = path.join(repoRoot, 'examples', 'mcp-universe', 'workflow.yaml');

type Chat = { tools?: Array<{ function: { name: string } }>; messages: Array<{ role: string; content: unknown }> };
const chat = (request: RecordedRequest) => request.body as Chat;
const systemOf = (request: RecordedRequest) => String(chat(request).messages[0]?.content);
const userOf = (request: RecordedRequest) => JSON.stringify(chat(request).messages.slice(1));
const plan = {
  subtasks: [
    { agent: 'basic-agent', task: 'Give the latitude and longitude of San Francisco.' },
    { agent: 'function-call-agent', task: 'Get the current weather in San Francisco.' },
  ],
};
const answer = '{"city": "San Francisco", "weather": "58.3°F, wind 9.4 mph, overcast"}';

function respond(request: RecordedRequest): MockTurn {
  const system = systemOf(request);
  if (system.includes('orchestrator of the workflow')) return { text: userOf(request).includes('[results of the subtasks]') ? answer : JSON.stringify(plan) };
  if (system.includes('latitude and the longitude')) return { text: '37.7749, -122.4194' };
  if (system.includes('weather forecast')) {
    if (chat(request).messages.some((message) => message.role === 'tool')) return { text: '58.3°F, wind 9.4 mph, overcast' };
    const tool = chat(request).tools?.find((entry) => entry.function.name.includes('get_weather'));
    return { toolCalls: [{ name: tool?.function.name ?? 'missing', arguments: { location: 'San Francisco, CA' } }] };
  }
  return { text: 'unscripted' };
}

const servers = useOpenMeteoAndMockLlm(respond);

describe('m3 bench with a workflow', () => {
  it('runs the seed orchestrator over the weather task as one episode with one trajectory', async () => {
    const run = await runM3InProcess(['bench', exampleFile, '--run-dir', resultsDir, '--run-id', 'wf', '--trace-file'], {
      OPENAI_BASE_URL: servers.mock().openAiBaseUrl,
      OPENAI_API_KEY: 'sk-test-workflow-000000000000',
      BENCH_MODEL: 'mock-model',
      ...openMeteoEnv(servers.fake()),
    });
    expect(run.code, run.output).toBe(0);

    const predFile = path.join(resultsDir, 'mock-model_test_mcp_fuzzy.json');
    const [prediction] = JSON.parse(readFileSync(predFile, 'utf8')) as Array<Record<string, unknown> & { steps: Array<Record<string, unknown>> }>;
    expect(prediction).toMatchObject({
      id: 'weather',
      final_reply: answer,
      num_step: 1,
      steps: [{ step: 1, agent: 'function-call-agent', calls: [{ name: 'weather/get_weather', arguments: { location: 'San Francisco, CA' } }] }],
      workflow: {
        name: 'orchestrator-workflow',
        type: 'orchestrator',
        order: ['orchestrator-workflow', 'basic-agent', 'function-call-agent', 'orchestrator-workflow'],
        subtasks: plan.subtasks,
      },
    });
    // The function-call agent saw the basic agent's result; only it was offered tools.
    const requests = servers.mock().generations();
    const weatherFirst = requests.find((request) => systemOf(request).includes('weather forecast'));
    expect(userOf(weatherFirst!)).toContain('1. basic-agent: Give the latitude and longitude of San Francisco.\\n37.7749, -122.4194');
    expect(requests.filter((request) => chat(request).tools).map((request) => systemOf(request).includes('weather forecast'))).toEqual([true, true]);

    const manifest = JSON.parse(readFileSync(predFile.replace(/\.json$/, '.manifest.json'), 'utf8'));
    expect(manifest.workflow).toMatchObject({ name: 'orchestrator-workflow', type: 'orchestrator', sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(manifest.options.workflow.agents.map((agent: { name: string; kind: string }) => [agent.name, agent.kind])).toEqual([
      ['basic-agent', 'basic'],
      ['function-call-agent', 'function-call'],
    ]);
    expect(manifest.options).not.toHaveProperty('agent');

    const shown = await runM3InProcess(['runs', 'show', 'wf.mock-model', '--store', path.join(resultsDir, 'm3bench.sqlite'), '--task', 'weather']);
    expect(shown.code, shown.output).toBe(0);
    expect(shown.stdout).toContain('model requests: 5 (0 failed, 0 retried)');
    expect(shown.stdout).toContain('requests by agent: orchestrator-workflow 2, basic-agent 1, function-call-agent 2');
    expect(shown.stdout).toMatch(/round 3\.0 \[function-call-agent\] weather\/get_weather \(\d+ ms\)/);

    const trace = readFileSync(path.join(resultsDir, 'mock-model.trace.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { event: { type: string; agent?: string; round?: number } });
    expect(trace.filter((record) => record.event.type === 'model_call').map((record) => [record.event.agent, record.event.round])).toEqual([
      ['orchestrator-workflow', 1],
      ['basic-agent', 2],
      ['function-call-agent', 3],
      ['function-call-agent', 4],
      ['orchestrator-workflow', 5],
    ]);

    const { document } = await runTaskFiles({ predFile, outputDir: path.join(dir, 'eval'), manifestFile: path.join(dir, 'none.json') });
    expect(document.per_task.map((record) => [record.id, record.success])).toEqual([['weather', true]]);
  }, 240_000);
});
