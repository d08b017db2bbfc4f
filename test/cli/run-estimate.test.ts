// `m3 run --estimate` against a scripted run: on the bundled local suite (its real task images, its
// ground truth; one shard of four), the estimate a run stores in its batch manifest is compared
// with what that run then did, through an `m3 run` (in this process: test/support/m3-in-process.ts)
// with the OpenAI driver against the wire-level mock LLM. The mock plays each task's ground-truth
// rounds (every call made on the echo fixture server with the ground-truth arguments as text), then
// answers with the ground-truth reply, and reports as usage the text it received and sent at 4
// characters a token (base64 image data left out). The run store adds each request's image tokens,
// measured on the images actually sent (src/media/vision-tokens.ts). The estimate's request count,
// image payload and tokens must be within 25 % of those; the measured errors are quoted in
// docs/cost.md.
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { episodesForRun, listRuns, modelCallsForEpisode, openStore } from '../../src/store/index.js';
import { nodeEntryArgs } from '../support/built-entry.js';
import { runM3InProcess } from '../support/m3-in-process.js';
import { startMockLlm, type MockLlm, type MockTurn, type RecordedRequest } from '../support/mock-llm/index.js';
import { fixtureRepoRoot } from '../support/fixture-servers/fixture-spec.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'm3-run-estimate-'));
let mock: MockLlm;

interface GtRecord {
  id: string;
  steps: Array<{ calls: Array<{ arguments: unknown }> }>;
  final_reply: string;
}
const tasks = JSON.parse(readFileSync(path.join(fixtureRepoRoot, 'json/m3_local_tasks.json'), 'utf8')) as Array<{ id: string; question: string }>;
const gt = new Map((JSON.parse(readFileSync(path.join(fixtureRepoRoot, 'json/m3_local_GT.json'), 'utf8')) as GtRecord[]).map((task) => [task.id, task]));

type Chat = { messages: Array<{ role: string; content: unknown }> };

/** The ground-truth round the request is at: the calls of that round, or the final reply after the last. */
function respond(request: RecordedRequest): MockTurn {
  const body = request.body as Chat;
  const text = JSON.stringify(body).replace(/data:[^"]*;base64,[A-Za-z0-9+/=]+/g, '');
  const first = JSON.stringify(body.messages.find((message) => message.role === 'user')?.content ?? '');
  const task = tasks.find((candidate) => first.includes(JSON.stringify(candidate.question).slice(1, -1)));
  const truth = task ? gt.get(task.id) : undefined;
  const round = body.messages.filter((message) => message.role === 'assistant').length;
  const step = truth?.steps[round];
  const reply: MockTurn = step
    ? { toolCalls: step.calls.map((call) => ({ name: 'echo__echo', arguments: { text: JSON.stringify(call.arguments) } })) }
    : { text: truth?.final_reply ?? 'no task matched' };
  const sent = JSON.stringify(reply.toolCalls ?? reply.text);
  return { ...reply, usage: { inputTokens: Math.ceil(text.length / 4), outputTokens: Math.ceil(sent.length / 4) } };
}

beforeAll(async () => {
  mock = await startMockLlm({ respond });
  // The echo fixture transpiled beside dist/ when fresh (test/support/built-entry.ts): through tsx each start transpiles it again.
  const server = { command: 'node', args: nodeEntryArgs('test/support/fixture-servers/echo.ts'), env: {} };
  writeFileSync(path.join(dir, 'echo.json'), JSON.stringify({ servers: { echo: server } }));
}, 60_000);
afterAll(async () => {
  await mock?.close();
});

const within = (estimated: number, actual: number) => Math.abs(estimated - actual) / actual;

describe('m3 run --estimate vs a scripted run of the local suite', () => {
  it("prints the estimate without a request, and stores one whose requests, image payload and tokens are within 25 % of the run's", async () => {
    const runDir = path.join(dir, 'run');
    const common = ['--model', 'openai:gpt-4o', '--tasks', 'json/m3_local_tasks.json', '--gt', 'json/m3_local_GT.json', '--shard', '1/4'];
    const env = { OPENAI_BASE_URL: mock.openAiBaseUrl, OPENAI_API_KEY: 'sk-test-openai-key-000000000000', M3_LLM_MAX_RETRIES: '0' };
    const estimate = await runM3InProcess(['run', ...common, '--estimate', '--results-dir', path.join(dir, 'empty')], env);
    expect(estimate.code, estimate.output).toBe(0);
    expect(mock.requests).toEqual([]);
    expect(estimate.stdout).toMatch(/openai:gpt-4o: 11 task\(s\), [\d.]+ requests per task/);
    expect(estimate.stdout).toContain('judges (m3 eval final --judges default, both metrics):');
    const json = await runM3InProcess(['run', ...common, '--estimate', '--json', '--max-step', '1', '--results-dir', path.join(dir, 'empty')], env);
    expect(json.code, json.output).toBe(0);
    // At most one round of calls: each task makes 2 requests (the round, then the answer).
    expect(JSON.parse(json.stdout).models[0]).toMatchObject({ model: 'openai:gpt-4o', tasks: 11, requestsPerTask: 2, requests: 22 });
    expect(mock.requests).toEqual([]);

    const store = path.join(dir, 'store.sqlite');
    const run = await runM3InProcess(
      ['run', ...common, '--config', path.join(dir, 'echo.json'), '--allow-missing-servers', '--run-dir', runDir, '--store', store, '--concurrency', '2'],
      env,
    );
    expect(run.code, run.output).toBe(0);
    const batchFile = readdirSync(runDir).find((name) => name.endsWith('.batch.json')) as string;
    const stored = JSON.parse(readFileSync(path.join(runDir, batchFile), 'utf8')).estimate.models[0];

    // What the run did: its requests, the images each carried (as the store measured them), the mock's usage.
    const db = openStore(store, { readonly: true });
    const calls = listRuns(db).flatMap((row) => episodesForRun(db, row.runId).flatMap((episode) => modelCallsForEpisode(db, episode.id)));
    db.close();
    const mean = (pick: (call: (typeof calls)[number]) => number) => calls.reduce((sum, call) => sum + pick(call), 0) / calls.length;
    const imageTokens = calls.reduce((sum, call) => sum + (call.imagePayload.estimatedTokens ?? 0), 0);
    const actual = {
      requests: calls.length,
      imagesPerRequest: mean((call) => call.imagePayload.count),
      imageBytesPerRequest: mean((call) => call.imagePayload.bytes),
      imageTokensPerRequest: imageTokens / calls.length,
      inputTokens: calls.reduce((sum, call) => sum + call.usage.inputTokens, 0) + imageTokens,
      outputTokens: calls.reduce((sum, call) => sum + call.usage.outputTokens, 0),
    };
    const errors = Object.fromEntries(Object.entries(actual).map(([key, value]) => [key, within(stored[key] as number, value)]));
    // The measured relative errors, printed for docs/cost.md.
    process.stdout.write(`estimate vs scripted run: ${JSON.stringify({ estimate: stored, actual, errors })}\n`);
    expect(actual.requests).toBeGreaterThan(11);
    for (const [key, error] of Object.entries(errors)) expect(error, key).toBeLessThanOrEqual(0.25);
  }, 400_000);
});
