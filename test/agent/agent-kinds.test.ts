// The react and basic agent kinds over the real OpenAI driver against the wire-level mock LLM,
// with a real fixture MCP server: text actions parsed and run in parallel, malformed actions
// answered and counted (illegal calling), no `tools` field on the wire, the prediction record.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runEpisode } from '../../src/agent/episode.js';
import type { AgentEvent } from '../../src/agent/events.js';
import type { AgentKind } from '../../src/agent/agent-kind.js';
import { parseReactReply } from '../../src/agent/react-actions.js';
import { toPrediction } from '../../src/agent/to-prediction.js';
import { hasIllegalCalling } from '../../src/eval/call/evaluate.js';
import { fixtureSpec } from '../support/fixture-servers/fixture-spec.js';
import { testAgentOptions, useHost } from '../support/agent-kit.js';
import { driverFor, useMockLlm } from '../llm/helpers.js';

const workDir = mkdtempSync(path.join(os.tmpdir(), 'm3-kinds-'));
const host = useHost(() => [fixtureSpec('echo')]);
const getMock = useMockLlm();

const fence = (body: string) => `Action:\n\`\`\`json\n${body}\n\`\`\``;

async function episode(agent: AgentKind, maxStep = 4) {
  const driver = await driverFor('openai', getMock());
  const events: AgentEvent[] = [];
  const input = {
    taskId: 'K1',
    question: 'echo a and b',
    userText: 'echo a and b',
    images: [],
    cwd: workDir,
    callContext: { taskId: 'K1', workspace: workDir },
  };
  const trace = await runEpisode(input, {
    driver,
    host: host(),
    options: testAgentOptions([workDir], { agent, maxStep }),
    onEvent: (event) => events.push(event),
  });
  return { trace, events, prediction: toPrediction({ id: 'K1' }, input.question, trace) };
}

type Body = { tools?: unknown; tool_choice?: unknown; messages: Array<{ role: string; content: unknown }> };
const bodies = () =>
  getMock()
    .generations()
    .map((request) => request.body as Body);

describe('react agent', () => {
  it('runs parallel text actions, counts a malformed action round as illegal, and never sends tools', async () => {
    getMock().enqueue(
      {
        text: `Thought: two echoes at once.\n${fence('[{"tool": "echo/echo", "arguments": {"text": "a"}}, {"tool": "echo/echo", "arguments": {"text": "b"}}]')}`,
      },
      { text: `Thought: oops.\n${fence('{"tool": "echo/echo", "arguments": {"text": ')}` },
      { text: 'Thought: done.\nFinal Answer: a and b' },
    );
    const { trace, events, prediction } = await episode('react');
    expect(prediction.steps.map((step) => step.calls.map((call) => [call.name, call.arguments, call.result]))).toEqual([
      [
        ['echo/echo', { text: 'a' }, 'a'],
        ['echo/echo', { text: 'b' }, 'b'],
      ],
    ]);
    expect(prediction.final_reply).toBe('a and b');
    expect(prediction.dialogue.map((round) => round.work.tool_calls.length)).toEqual([2, 0]);
    expect(hasIllegalCalling(prediction)).toBe(true);
    expect(trace.rounds[1]).toMatchObject({ unparseable: true, calls: [{ canonicalName: 'echo/echo', errorCode: 'invalid_arguments', executed: true }] });

    const wire = bodies();
    expect(wire).toHaveLength(3);
    expect(
      getMock()
        .generations()
        .every((request) => request.valid),
    ).toBe(true);
    expect(wire.every((body) => body.tools === undefined && body.tool_choice === undefined)).toBe(true);
    expect(String(wire[0]?.messages[0]?.content)).toContain('"tool": "server/tool"');
    expect(String(wire[0]?.messages[0]?.content)).toContain('echo/echo');
    expect(wire[2]?.messages.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'user', 'assistant', 'user', 'user']);
    expect(JSON.stringify(wire[1]?.messages[3]?.content)).toContain('Observation:\\n[1] echo/echo:\\na\\n\\n[2] echo/echo:\\nb');
    expect(JSON.stringify(wire[2]?.messages[5]?.content)).toContain('[Tool error] Malformed action: not valid JSON');

    const ends = events.filter((event) => event.type === 'tool_call_end');
    expect(ends.map((event) => [event.round, event.name, event.isError])).toEqual([
      [1, 'echo/echo', false],
      [1, 'echo/echo', false],
      [2, 'echo/echo', true],
    ]);
  });

  it('treats a reply that is neither an Action nor a Final Answer as malformed, and labels-free final answers after the last round', async () => {
    getMock().enqueue({ text: 'I think the answer is b.' }, { text: 'Final Answer: b' });
    const { prediction, trace } = await episode('react', 1);
    expect(trace.rounds).toHaveLength(1);
    expect(trace.rounds[0]?.calls[0]).toMatchObject({ canonicalName: '(unparsed action)', errorCode: 'invalid_arguments' });
    expect(prediction).toMatchObject({ steps: [], final_reply: 'b' });
    expect(hasIllegalCalling(prediction)).toBe(true);
  });

  it('parses the action format strictly', () => {
    expect(parseReactReply('Final Answer: 42')).toEqual({ kind: 'final', answer: '42' });
    const mixed = parseReactReply(fence('[{"tool": "a/b", "arguments": {"x": 1}}, {"tool": "a/c", "args": {}}, {"arguments": {}}]'));
    expect(mixed.kind === 'actions' && mixed.calls.map((call) => [call.name, call.arguments])).toEqual([['a/b', { x: 1 }]]);
    expect(mixed.kind === 'actions' && mixed.malformed.map((action) => action.tool)).toEqual(['a/c', '']);
    const unfenced = parseReactReply('Action: {"tool": "a/b", "arguments": {}}');
    expect(unfenced.kind === 'actions' && unfenced.malformed[0]?.problem).toBe('an Action without a ```json fenced block');
  });
});

describe('basic agent', () => {
  it('makes one request without tools and records no steps', async () => {
    getMock().enqueue({ text: 'It is b.' });
    const { prediction, events } = await episode('basic');
    expect(prediction).toMatchObject({ steps: [], num_step: 0, final_reply: 'It is b.', dialogue: [] });
    const wire = bodies();
    expect(wire).toHaveLength(1);
    expect(wire[0]?.tools).toBeUndefined();
    expect(String(wire[0]?.messages[0]?.content)).toContain('No tools are available');
    expect(events.some((event) => event.type === 'tool_call_start' || event.type === 'tool_call_end')).toBe(false);
  });
});
