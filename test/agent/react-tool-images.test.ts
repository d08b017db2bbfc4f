// In the react agent a tool's image reaches the model inside a user turn (the Observation), not
// a tool message; the image-delivery audit must still name the tool call that showed it, as it
// does for function calling. Real OpenAI driver against the wire-level mock LLM, real fixture
// image server over MCP stdio; the audit is what the episode's model_call events carry.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentKind } from '../../src/agent/agent-kind.js';
import { runEpisode } from '../../src/agent/episode.js';
import type { AgentEvent } from '../../src/agent/events.js';
import type { ImageDelivery } from '../../src/core/image-delivery.js';
import { driverFor, useMockLlm } from '../llm/helpers.js';
import { testAgentOptions, useHost } from '../support/agent-kit.js';
import { fixtureSpec } from '../support/fixture-servers/fixture-spec.js';

const workDir = mkdtempSync(path.join(os.tmpdir(), 'm3-react-images-'));
const host = useHost(() => [fixtureSpec('image')]);
const getMock = useMockLlm();

async function auditedImages(agent: AgentKind): Promise<ImageDelivery[][]> {
  const driver = await driverFor('openai', getMock());
  const events: AgentEvent[] = [];
  const input = {
    taskId: 'R1',
    question: 'make an image',
    userText: 'make an image',
    images: [],
    cwd: workDir,
    callContext: { taskId: 'R1', workspace: workDir },
  };
  await runEpisode(input, { driver, host: host(), options: testAgentOptions([workDir], { agent, maxStep: 3 }), onEvent: (event) => events.push(event) });
  return events.flatMap((event) => (event.type === 'model_call' ? [event.images] : []));
}

describe('tool images in the image-delivery audit', () => {
  it('names the tool call in react mode, where the image travels in the Observation turn', async () => {
    getMock().enqueue(
      { text: 'Thought: make it.\nAction:\n```json\n{"tool": "image/make_image", "arguments": {"width": 20, "height": 10}}\n```' },
      { text: 'Thought: done.\nFinal Answer: a red image' },
    );
    const perRequest = await auditedImages('react');
    expect(perRequest).toHaveLength(2);
    expect(perRequest[1]).toEqual([
      expect.objectContaining({ origin: 'tool', tool: 'image/make_image', callId: expect.any(String), status: 'sent', width: 20, height: 10 }),
    ]);
  });

  it('names it the same way with function calling', async () => {
    getMock().enqueue({ toolCalls: [{ name: 'image__make_image', arguments: { width: 20, height: 10 } }] }, { text: 'a red image' });
    const perRequest = await auditedImages('function-call');
    expect(perRequest[1]).toEqual([expect.objectContaining({ origin: 'tool', tool: 'image__make_image', status: 'sent', width: 20, height: 10 })]);
  });
});
