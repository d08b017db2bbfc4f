// Every tool call the harness makes carries the call context (src/core/tool-result-contract.ts):
// a benchmark task sends its task id, run id and task workspace; a demo session its session id
// and upload folder. The meta fixture server answers with the `_meta` it received.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CALL_CONTEXT_META_KEY } from '../../src/core/tool-result-contract.js';
import { callToolFromPage } from '../../src/demo/playground.js';
import { Session } from '../../src/demo/sessions.js';
import { createReplayDriver } from '../../src/llm/replay/driver.js';
import { runTask, type TaskEnvironment } from '../../src/runner/run-task.js';
import { useHost, testAgentOptions } from '../support/agent-kit.js';
import { fixtureSpec } from '../support/fixture-servers/fixture-spec.js';

const root = mkdtempSync(path.join(os.tmpdir(), 'm3-context-'));
const options = testAgentOptions([root]);
const host = useHost(() => [fixtureSpec('meta')]);

function contextIn(text: unknown): unknown {
  return (JSON.parse(String(text)) as Record<string, unknown>)[CALL_CONTEXT_META_KEY];
}

describe('the call context', () => {
  it('a benchmark task sends its id, the run id and its workspace folder', async () => {
    const gt = new Map([['T1', { id: 'T1', question: 'q', final_reply: 'f', steps: [{ step: 1, calls: [{ name: 'meta/echo_meta', arguments: {} }] }] }]]);
    const driver = await createReplayDriver('gt', { env: {}, groundTruth: gt, timeoutMs: 0 });
    const env: TaskEnvironment = {
      driver,
      host: host(),
      options,
      root,
      runId: 'run-42',
      workspaceMode: 'isolated',
      keepWorkspace: true,
      imageSearchDirs: [root],
      taskTimeoutMs: 0,
    };
    const outcome = await runTask({ id: 'T1', type: 't', tier: undefined, question: 'q', image: undefined }, env);
    if (!outcome.ok) throw new Error(outcome.verdict.message);
    expect(contextIn(outcome.prediction.steps[0]?.calls[0]?.result)).toEqual({
      taskId: 'T1',
      runId: 'run-42',
      workspace: path.join(root, 'media', 'runs', 'run-42', 'T1'),
    });
  });

  it('a demo session sends its id and its upload folder from the playground', async () => {
    const uploadsDir = path.join(root, 'media', 'uploads');
    const images = { root, uploadsDir, maxUploadBytes: 1_000_000, maxImagesPerSession: 4, imagePolicy: options.imagePolicy };
    const session = new Session('session-abcdef', 'owner-key', { maxTurns: 2, maxBufferedEvents: 10 });
    const result = await callToolFromPage(
      { host: host(), agentOptions: options, images, root },
      session,
      { sessionId: session.id, tool: 'meta/echo_meta', arguments: {} },
      new AbortController().signal,
    );
    // A demo session is confined to its own folder (no fallback to the shared media dir).
    expect(contextIn(result.text)).toEqual({
      taskId: 'session-abcdef',
      runId: 'demo',
      workspace: path.join(uploadsDir, 'session-abcdef'),
      workspaceOnly: true,
    });
  });
});
