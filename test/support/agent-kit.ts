// Shared pieces for tests that run episodes on the fixture servers: a host started for a test
// file (its fixtures in process, test/support/in-process-host.ts), quiet agent options, a silent logger, one replay-oracle episode of a hand-written task,
// and prediction files written and read back the way the evaluators read them.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { runEpisode, type EpisodeDeps, type EpisodeTrace } from '../../src/agent/episode.js';
import type { AgentOptions } from '../../src/agent/options.js';
import { PREDICTION_CODED_FIELD, PREDICTION_ERROR_CODE_FIELD } from '../../src/core/tool-result-contract.js';
import { createReplayDriver } from '../../src/llm/replay/driver.js';
import type { ModelDriver } from '../../src/llm/types.js';
import { McpHost } from '../../src/mcp/host.js';
import { loadPredictions } from '../../src/tasks/load.js';
import type { Prediction, PredictionRecord } from '../../src/tasks/schemas.js';
import type { ServerSpec } from '../../src/config/servers.js';
import { inProcessHost } from './in-process-host.js';

export const silentLogger = { debug() {}, info() {}, warn() {}, error() {} };

/**
 * Starts a host on these servers before the file's tests and closes it after; call the result for
 * it. Fixture servers run in process; other specs start as configured.
 */
export function useHost(specs: () => ServerSpec[]): () => McpHost {
  let host: McpHost | undefined;
  beforeAll(async () => {
    host = await McpHost.start(specs(), { requireAll: true, startupTimeoutMs: 120_000, logger: silentLogger, connectServer: inProcessHost().connectServer });
  }, 180_000);
  afterAll(async () => {
    await host?.close();
  });
  return () => {
    if (!host) throw new Error('the test host did not start');
    return host;
  };
}

export function testAgentOptions(imageRoots: string[], overrides: Partial<AgentOptions> = {}): AgentOptions {
  return {
    maxStep: 2,
    maxConcurrent: 6,
    topTools: 0,
    maxNewTokens: 100,
    mergePrepareWork: true,
    skipEndStage: true,
    instructionRole: 'user',
    toolResultMaxChars: 0,
    imagePolicy: { recodeOverKb: 0, maxEdge: 0 },
    retry: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1, timeoutMs: 0 },
    toolCallTimeoutMs: 10_000,
    imageRoots,
    ...overrides,
  };
}

export interface ReplayRequest {
  id: string;
  calls: Array<{ name: string; arguments: unknown }>;
  cwd: string;
  workspace: string;
  /** Wraps the replay driver (e.g. to record its requests). */
  wrap?: (driver: ModelDriver) => ModelDriver;
}

/** One episode in which the replay oracle makes `calls` in a single round. */
export async function replayOneRound(request: ReplayRequest, deps: Omit<EpisodeDeps, 'driver'>): Promise<EpisodeTrace> {
  const task = { id: request.id, question: 'q', final_reply: 'done', steps: [{ step: 1, calls: request.calls }] };
  const replay = await createReplayDriver('gt', { env: {}, groundTruth: new Map([[request.id, task]]), timeoutMs: 0 });
  const driver = request.wrap ? request.wrap(replay) : replay;
  return runEpisode(
    { taskId: request.id, question: 'q', userText: 'q', images: [], cwd: request.cwd, callContext: { taskId: request.id, workspace: request.workspace } },
    { ...deps, driver },
  );
}

/** Writes one record as a prediction file in `dir` and loads it back as the evaluators do. */
export function roundTripPrediction(dir: string, record: unknown): Prediction[] {
  const file = path.join(dir, `${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify([record]));
  return loadPredictions(file);
}

/** The record as an older file has it: no per-call error codes, no marker. */
export function withoutCodes(prediction: PredictionRecord): Record<string, unknown> {
  const { [PREDICTION_CODED_FIELD]: _marker, ...uncoded } = prediction;
  return { ...uncoded, steps: uncoded.steps.map((step) => ({ ...step, calls: step.calls.map(({ [PREDICTION_ERROR_CODE_FIELD]: _code, ...call }) => call) })) };
}
