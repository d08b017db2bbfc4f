// The three workflow kinds (src/agent/workflow.ts) through the batch runner: the real OpenAI
// driver against the wire-level mock LLM, scripted per agent (told apart by its instruction),
// two real fixture MCP servers (each agent offered only its own), a real SQLite store. Checked:
// what each agent received on the wire, the ONE prediction trajectory (steps in execution
// order with their agents), the workflow record, and the store rows' agent names and order.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkflowDefinition } from '../../src/agent/workflow-definition.js';
import type { ModelDriver } from '../../src/llm/types.js';
import { createVerboseView } from '../../src/agent/verbose-view.js';
import { PredictionFile } from '../../src/runner/prediction-file.js';
import { runBatch } from '../../src/runner/run-batch.js';
import { StoreRecorder } from '../../src/runner/store-recorder.js';
import { createRun, episodesForRun, modelCallsForEpisode, openStore, toolCallsForEpisode, type Store } from '../../src/store/index.js';
import { fixtureSpec } from '../support/fixture-servers/fixture-spec.js';
import { startMockLlm, type MockLlm, type MockTurn, type RecordedRequest } from '../support/mock-llm/index.js';
import { testAgentOptions, useHost } from '../support/agent-kit.js';
import { driverFor } from '../llm/helpers.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'm3-workflows-'));
const host = useHost(() => [fixtureSpec('echo'), fixtureSpec('echo', { name: 'echo2' })]);
let store: Store;
let mock: MockLlm;
let driver: ModelDriver;
/** The reply of the router's or orchestrator's planning request, set per test. */
let planReply = '';
/** When set, the writer's requests fail with HTTP 400 (a request the API rejects: a model failure). */
let writerFails = false;

type Chat = { tools?: Array<{ function: { name: string } }>; messages: Array<{ role: string; content: unknown }> };
const chat = (request: RecordedRequest) => request.body as Chat;
const systemOf = (request: RecordedRequest) => String(chat(request).messages[0]?.content);
const userOf = (request: RecordedRequest) => JSON.stringify(chat(request).messages.slice(1));

/** looker: native calls on echo; writer: ReAct text actions on echo2; the planner: `planReply`, then the composition. */
function respond(request: RecordedRequest): MockTurn {
  const system = systemOf(request);
  const later = chat(request).messages.some((message) => message.role === 'tool') || userOf(request).includes('Observation:');
  if (system.includes('of the workflow')) return { text: userOf(request).includes('[results of the subtasks]') ? 'composed: a and b' : planReply };
  if (system.includes('LOOKER'))
    return later ? { text: 'found a' } : { toolCalls: [{ name: host().findByCanonical('echo/echo')?.functionName ?? '', arguments: { text: 'a' } }] };
  if (system.includes('WRITER') && writerFails) return { fault: { kind: 'status', status: 400, message: 'bad request' } };
  if (system.includes('WRITER'))
    return later
      ? { text: 'Final Answer: a and b' }
      : { text: 'Thought: echo b.\nAction:\n```json\n[{"tool": "echo2/echo", "arguments": {"text": "b"}}]\n```' };
  return { text: `unscripted request: ${system.slice(0, 80)}` };
}

const agents: WorkflowDefinition['agents'] = [
  { name: 'looker', kind: 'function-call', instruction: 'LOOKER: find a.', servers: ['echo'] },
  { name: 'writer', kind: 'react', instruction: 'WRITER: add b.', servers: ['echo2'], maxStep: 3 },
];
const workflowOf = (type: WorkflowDefinition['type']): WorkflowDefinition => ({ name: `${type}-wf`, type, agents, maxSubtasks: 5 });

beforeAll(async () => {
  store = openStore(path.join(dir, 'store.sqlite'));
  mock = await startMockLlm({ respond });
  driver = await driverFor('openai', mock);
});
afterAll(async () => {
  store?.close();
  await mock?.close();
});

async function runWorkflowTask(type: WorkflowDefinition['type'], expected = { done: 1, failedModel: 0, failedInfra: 0 }) {
  const runId = `wf-${type}-${Math.random().toString(36).slice(2, 8)}`;
  const before = mock.generations().length;
  const verbose: string[] = [];
  createRun(store, { runId, modelSpec: driver.id, modelLabel: 'x' });
  const predictions = new PredictionFile(path.join(dir, `${runId}.json`));
  const options = testAgentOptions([dir], { maxStep: 2, workflow: workflowOf(type) });
  const result = await runBatch(
    [{ id: 'T1', image: undefined, type: 't', tier: undefined, question: 'echo a, then b' }],
    { driver, host: host(), options, root: dir, runId, workspaceMode: 'dedup', keepWorkspace: true, imageSearchDirs: [dir], taskTimeoutMs: 0 },
    {
      concurrency: 1,
      maxRequeue: 0,
      recorder: new StoreRecorder(store, runId, driver.id),
      predictions,
      onEvent: createVerboseView((line) => verbose.push(line)),
    },
  );
  expect(result.progress).toMatchObject(expected);
  const [episode] = episodesForRun(store, runId);
  const models = modelCallsForEpisode(store, episode!.id);
  const tools = toolCallsForEpisode(store, episode!.id);
  return {
    prediction: predictions.values()[0]!,
    episode: episode!,
    wire: mock.generations().slice(before),
    modelRows: models.map((row) => [row.agent, row.round, row.purpose]),
    toolRows: tools.map((row) => [row.agent, row.round, row.canonicalName, row.resultText]),
    /** What `--verbose` printed. */
    verbose,
  };
}

const stepsOf = (prediction: { steps: Array<Record<string, unknown> & { calls: Array<{ name: string; result?: unknown }> }> }) =>
  prediction.steps.map((step) => [step.step, step.agent, step.calls.map((call) => `${call.name}=${String(call.result)}`)]);

describe('workflows', () => {
  it('chain: each agent gets the task and the previous answer; one trajectory in execution order', async () => {
    const { prediction, episode, wire, modelRows, toolRows } = await runWorkflowTask('chain');
    expect(stepsOf(prediction)).toEqual([
      [1, 'looker', ['echo/echo=a']],
      [2, 'writer', ['echo2/echo=b']],
    ]);
    expect(prediction).toMatchObject({ num_step: 2, final_reply: 'a and b', workflow: { name: 'chain-wf', type: 'chain', order: ['looker', 'writer'] } });
    expect(prediction.dialogue.map((entry) => entry.agent)).toEqual(['looker', 'writer']);
    // Each agent saw only its own servers' tools; the writer got the looker's answer.
    const servers = (request: RecordedRequest) => [
      ...new Set((chat(request).tools ?? []).map((tool) => host().findByFunctionName(tool.function.name)?.server)),
    ];
    expect(wire.map(servers)).toEqual([['echo'], ['echo'], [], []]);
    expect(systemOf(wire[2]!)).toContain('echo2/echo');
    expect(systemOf(wire[2]!)).not.toContain('echo/echo:');
    expect(userOf(wire[2]!)).toContain('[answer of the previous agent \\"looker\\"]\\nfound a');
    // Rounds are shifted past the earlier agent's, so rows never collide and read in order.
    expect(modelRows).toEqual([
      ['looker', 1, 'work'],
      ['looker', 2, 'work'],
      ['writer', 3, 'work'],
      ['writer', 4, 'work'],
    ]);
    expect(toolRows).toEqual([
      ['looker', 1, 'echo/echo', 'a'],
      ['writer', 3, 'echo2/echo', 'b'],
    ]);
    expect(episode).toMatchObject({ status: 'ok', rounds: 2, toolCallCount: 2 });
  });

  it('router: one planning request picks the agent and says why; its request adds no step', async () => {
    planReply = 'I pick:\n```json\n{"agent": "writer", "reason": "b needs echo2"}\n```';
    const { prediction, wire, modelRows, toolRows, verbose } = await runWorkflowTask('router');
    // --verbose labels the planning request's answer as the plan, an agent's answer as that agent's, and the task's answer as final.
    expect(verbose).toContain('[T1] [router-wf] plan: I pick: ```json {"agent": "writer", "reason": "b needs echo2"} ```\n');
    expect(verbose.filter((line) => line.includes('final answer'))).toEqual(['[T1] final answer after 1 round(s): a and b\n']);
    expect(verbose.filter((line) => line.startsWith('[T1] [writer] answer of writer after '))).toHaveLength(1);
    expect(prediction).toMatchObject({
      final_reply: 'a and b',
      workflow: { type: 'router', order: ['router-wf', 'writer'], route: { agent: 'writer', reason: 'b needs echo2' } },
    });
    expect(prediction.workflow).not.toHaveProperty('plan_error');
    expect(stepsOf(prediction)).toEqual([[1, 'writer', ['echo2/echo=b']]]);
    expect(chat(wire[0]!).tools).toBeUndefined();
    expect(userOf(wire[0]!)).toContain('\\"looker\\" (function-call; tools of echo): LOOKER: find a.');
    expect(modelRows).toEqual([
      ['router-wf', 1, 'work'],
      ['writer', 2, 'work'],
      ['writer', 3, 'work'],
    ]);
    expect(toolRows).toEqual([['writer', 2, 'echo2/echo', 'b']]);
  });

  it('router: a reply naming no agent runs nothing further, and says why', async () => {
    planReply = '{"agent": "nobody", "reason": "?"}';
    const { prediction, modelRows } = await runWorkflowTask('router');
    expect(prediction).toMatchObject({ steps: [], final_reply: '', workflow: { order: ['router-wf'], route: { agent: null, reason: '?' } } });
    expect(String(prediction.workflow && (prediction.workflow as { plan_error?: string }).plan_error)).toContain('"nobody", which is not one of its agents');
    expect(modelRows).toEqual([['router-wf', 1, 'work']]);
  });

  it('orchestrator: plans subtasks, dispatches them in order with earlier results, composes the answer', async () => {
    planReply = JSON.stringify({
      subtasks: [
        { agent: 'looker', task: 'echo a' },
        { agent: 'ghost', task: 'haunt' },
        { agent: 'writer', task: 'echo b' },
      ],
    });
    const { prediction, wire, modelRows, toolRows } = await runWorkflowTask('orchestrator');
    expect(prediction).toMatchObject({
      final_reply: 'composed: a and b',
      workflow: {
        order: ['orchestrator-wf', 'looker', 'writer', 'orchestrator-wf'],
        subtasks: [
          { agent: 'looker', task: 'echo a' },
          { agent: 'writer', task: 'echo b' },
        ],
        plan_error: 'dropped: subtask 2 names "ghost", not one of the agents',
      },
    });
    expect(stepsOf(prediction)).toEqual([
      [1, 'looker', ['echo/echo=a']],
      [2, 'writer', ['echo2/echo=b']],
    ]);
    const writerFirst = wire.find((request) => systemOf(request).includes('WRITER'));
    expect(userOf(writerFirst!)).toContain('[results of the earlier subtasks]\\n1. looker: echo a\\nfound a');
    expect(userOf(writerFirst!)).toContain('[your subtask]\\necho b');
    expect(userOf(wire.at(-1)!)).toContain('[results of the subtasks]\\n1. looker: echo a\\nfound a\\n\\n2. writer: echo b\\na and b');
    expect(modelRows).toEqual([
      ['orchestrator-wf', 1, 'work'],
      ['looker', 2, 'work'],
      ['looker', 3, 'work'],
      ['writer', 4, 'work'],
      ['writer', 5, 'work'],
      ['orchestrator-wf', 6, 'work'],
    ]);
    expect(toolRows.map((row) => row.slice(0, 3))).toEqual([
      ['looker', 2, 'echo/echo'],
      ['writer', 4, 'echo2/echo'],
    ]);
  });

  it('a failing inner agent ends the one episode with the joined trace of every agent so far', async () => {
    writerFails = true;
    try {
      const { prediction, episode, modelRows, toolRows } = await runWorkflowTask('chain', { done: 1, failedModel: 1, failedInfra: 0 });
      expect(episode).toMatchObject({ status: 'model_failure', rounds: 1, toolCallCount: 1 });
      expect(stepsOf(prediction)).toEqual([[1, 'looker', ['echo/echo=a']]]);
      expect(prediction).toMatchObject({ final_reply: '', workflow: { order: ['looker', 'writer'] } });
      expect(modelRows).toEqual([
        ['looker', 1, 'work'],
        ['looker', 2, 'work'],
        ['writer', 3, 'work'],
      ]);
      expect(toolRows).toEqual([['looker', 1, 'echo/echo', 'a']]);
    } finally {
      writerFails = false;
    }
  });
});
