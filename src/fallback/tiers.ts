// The tool fallback layer as the checked tool call's interceptor (src/mcp/checked-call.ts). It
// sees every finished call. A real success is always used as is (and, when recording is on,
// stored in the cache). A call of a mockable tool that failed for an infrastructure reason
// (src/core/tool-result-contract.ts) is served by the first tier that has an answer:
//   fixture for these exact arguments → record-replay cache → the fixture's "*" default →
//   LLM simulator → generic template.
// A restricted tool (one that reads or writes files or images, src/fallback/allow-list.ts) is
// served by its committed fixture alone (exact, then default): no cache, no simulator, no
// template, and its real returns are never recorded; without a fixture for the call it keeps
// its infrastructure error, since any other answer would name a file nobody wrote.
// A recorded return for the exact arguments is preferred to a fixture's catch-all default: it
// is what the tool really answered to this call. A model's own error (a refusal, or a server's
// error result without an infrastructure code) and an aborted call are never mocked. The
// served outcome is an ordinary result (no error code) carrying `fallback: {tier, original
// code}`, every served call is appended to the audit log, and nothing here ever throws. A
// fixture with an asset (a file or image tool) writes it into the task's workspace first and
// answers as the server does: its text, then the image; if the file cannot be written the call
// is not served (a result naming a file that is not there would be a fabricated fact).
import { isInfrastructureErrorCode, type FallbackTier, type ToolErrorCode } from '../core/tool-result-contract.js';
import type { Logger } from '../log/logger.js';
import type { FinishedToolCall, ToolCallInterceptor } from '../mcp/checked-call.js';
import { toResultText } from '../mcp/normalize-content.js';
import type { NormalizedContent, ToolCallOutcome } from '../mcp/types.js';
import type { PutOutcome } from '../store/index.js';
import type { AllowList } from './allow-list.js';
import type { AuditLog } from './audit-log.js';
import { oversizedResult, type FallbackCache } from './cache.js';
import { contractHint } from './contract-hints.js';
import { savedPathToken, writeFixtureAsset } from './fixture-asset.js';
import { defaultFixture, exactFixture, type FixtureResult, type FixtureSet } from './fixtures.js';
import type { Simulator } from './simulator.js';
import { markInline, templatePayload } from './template.js';

export interface FallbackDeps {
  /** Serve failures (M3_MOCK_FALLBACK); without it the layer only records. */
  serve: boolean;
  /** Store successful real returns of mockable tools (M3_MOCK_RECORD). */
  record: boolean;
  markInline: boolean;
  fixtures: FixtureSet;
  allowList: AllowList;
  cache?: FallbackCache;
  /** Absent when the simulator tier is off (M3_MOCK_LLM=0). */
  simulator?: Simulator;
  audit: AuditLog;
  /** The server's tool-surface hash, part of every cache key. */
  toolsHashOf: (server: string) => string;
  logger: Logger;
  /** Where fixture assets may be written (default: the servers' allowed roots). */
  assetRoots?: readonly string[];
}

interface Served {
  tier: FallbackTier;
  text: string;
  /** The payload as a JSON value, when a fixture wrote it as one (for the inline mark). */
  value?: unknown;
  note?: string;
  asset?: FixtureResult['asset'];
}

export type RecordVerdict = { recorded: true; outcome: PutOutcome } | { recorded: false; reason: string };

const simulatorExamples = 3;

/** Content a text replay can reproduce: no images, audio or binary resources. */
function replayable(outcome: ToolCallOutcome): boolean {
  return outcome.content.every((item) => item.type === 'text' || (item.type === 'resource' && item.blob === undefined));
}

function fromFixture(fixture: FixtureResult): Served {
  return { tier: 'fixture', text: fixture.text, value: fixture.value, ...(fixture.asset ? { asset: fixture.asset } : {}) };
}

export class FallbackInterceptor implements ToolCallInterceptor {
  private readonly warned = new Set<string>();

  constructor(private readonly deps: FallbackDeps) {}

  async afterCall(call: FinishedToolCall, signal?: AbortSignal): Promise<ToolCallOutcome> {
    const { outcome } = call;
    if (!outcome.isError) {
      this.recordReal(call);
      return outcome;
    }
    const code = outcome.errorCode;
    if (!this.deps.serve || !code || !isInfrastructureErrorCode(code) || code === 'aborted' || signal?.aborted) return outcome;
    const decision = this.deps.allowList.decide(call.tool);
    if (!decision.mockable) return outcome;
    const started = Date.now();
    const served = await this.serve(call, code, decision.restricted, signal);
    if (!served) return outcome;
    const content = await this.contentOf(call, served);
    if (!content) return outcome;
    try {
      this.deps.audit.append({
        runId: call.context.runId,
        taskId: call.context.taskId,
        server: call.tool.server,
        tool: call.tool.tool,
        arguments: call.arguments,
        tier: served.tier,
        originalErrorCode: code,
        ...(served.note ? { note: served.note } : {}),
      });
    } catch (error) {
      this.warnOnce('audit', `fallback audit log ${this.deps.audit.file} could not be written: ${(error as Error).message}`);
    }
    return {
      canonicalName: outcome.canonicalName,
      content,
      isError: false,
      text: toResultText({ content, isError: false }),
      durationMs: outcome.durationMs + (Date.now() - started),
      fallback: { tier: served.tier, originalErrorCode: code },
    };
  }

  /** The served content: the text, and for a fixture with an asset, the file written first (undefined when it could not be). */
  private async contentOf(call: FinishedToolCall, served: Served): Promise<NormalizedContent[] | undefined> {
    const inline = (text: string) => (this.deps.markInline ? markInline(served.tier, text, served.value) : text);
    if (!served.asset) return [{ type: 'text', text: inline(served.text) }];
    try {
      const written = await writeFixtureAsset(served.asset, call.context.workspace, this.deps.assetRoots);
      const text = served.text.replaceAll(savedPathToken, written.file);
      return [
        { type: 'text', text: inline(text) },
        ...(served.asset.image ? [{ type: 'image' as const, data: written.data.toString('base64'), mimeType: written.mimeType }] : []),
      ];
    } catch (error) {
      this.warnOnce(
        `asset ${served.asset.source}`,
        `fallback fixture asset ${served.asset.source} was not written, the call is not served: ${(error as Error).message}`,
      );
      return undefined;
    }
  }

  private warnOnce(key: string, message: string): void {
    if (this.warned.has(key)) return;
    this.warned.add(key);
    this.deps.logger.warn(message);
  }

  private cacheKey(call: FinishedToolCall) {
    return { server: call.tool.server, tool: call.tool.tool, arguments: call.arguments, toolsHash: this.deps.toolsHashOf(call.tool.server) };
  }

  /** Stores a successful real return of a mockable tool in the cache (`m3 fixtures record` calls it too). */
  recordReal(call: FinishedToolCall): RecordVerdict {
    const { cache } = this.deps;
    if (!this.deps.record || !cache) return { recorded: false, reason: 'recording is off' };
    if (call.outcome.isError) return { recorded: false, reason: 'the call failed' };
    if (!replayable(call.outcome)) return { recorded: false, reason: 'the result holds images or binary data, which a text replay cannot reproduce' };
    const decision = this.deps.allowList.decide(call.tool);
    if (!decision.mockable) return { recorded: false, reason: decision.reason };
    if (decision.restricted) return { recorded: false, reason: `only its committed fixture may stand in for it: ${decision.restricted}` };
    const oversize = oversizedResult(call.outcome.text);
    if (oversize) return { recorded: false, reason: oversize };
    try {
      return { recorded: true, outcome: cache.record(this.cacheKey(call), call.outcome.text, 'real') };
    } catch (error) {
      this.warnOnce('record', `fallback cache ${cache.file}: a real return could not be recorded: ${(error as Error).message}`);
      return { recorded: false, reason: `the cache write failed: ${(error as Error).message}` };
    }
  }

  private lookupCache(call: FinishedToolCall): Served | undefined {
    try {
      const entry = this.deps.cache?.lookup(this.cacheKey(call));
      return entry ? { tier: 'cache', text: entry.resultText } : undefined;
    } catch (error) {
      this.warnOnce('lookup', `fallback cache ${this.deps.cache?.file}: lookup failed: ${(error as Error).message}`);
      return undefined;
    }
  }

  private async simulate(call: FinishedToolCall, signal?: AbortSignal): Promise<Served | { note: string }> {
    const { simulator, cache } = this.deps;
    if (!simulator) return { note: 'simulator off (M3_MOCK_LLM=0)' };
    let examples: Array<{ arguments: unknown; result: string }> = [];
    try {
      examples =
        cache?.realExamples(call.tool.server, call.tool.tool, simulatorExamples).map((entry) => ({ arguments: entry.arguments, result: entry.resultText })) ??
        [];
    } catch {
      // Examples only improve the prompt; the simulator works without them.
    }
    const fixtures = this.deps.fixtures.tools.get(call.tool.canonicalName);
    for (const fixture of fixtures ? fixtures.exact.values() : []) {
      if (examples.length >= simulatorExamples) break;
      examples.push({ arguments: fixture.arguments, result: fixture.text });
    }
    const result = await simulator.simulate(call.tool, call.arguments, contractHint(call.tool.canonicalName), examples, signal);
    if (!result.ok) return { note: `simulator: ${result.reason}` };
    try {
      cache?.record(this.cacheKey(call), result.text, 'simulated');
    } catch (error) {
      this.warnOnce('record', `fallback cache ${cache?.file}: a simulated return could not be stored: ${(error as Error).message}`);
    }
    return { tier: 'simulator', text: result.text };
  }

  /**
   * The first tier with an answer; the template always has one, except for a restricted tool,
   * which only its fixtures may serve (undefined: the call keeps its error).
   */
  private async serve(call: FinishedToolCall, code: ToolErrorCode, restricted: string | undefined, signal?: AbortSignal): Promise<Served | undefined> {
    const name = call.tool.canonicalName;
    const exact = exactFixture(this.deps.fixtures, name, call.arguments);
    if (exact) return fromFixture(exact);
    if (restricted) {
      const fallback = defaultFixture(this.deps.fixtures, name);
      return fallback ? fromFixture(fallback) : undefined;
    }
    const cached = this.lookupCache(call);
    if (cached) return cached;
    const fallback = defaultFixture(this.deps.fixtures, name);
    if (fallback) return fromFixture(fallback);
    let note: string;
    try {
      const simulated = await this.simulate(call, signal);
      if ('tier' in simulated) return simulated;
      note = simulated.note;
    } catch (error) {
      note = `simulator: ${(error as Error).message}`;
    }
    return { tier: 'template', text: templatePayload(name, call.arguments, code), note };
  }
}
