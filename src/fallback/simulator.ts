// The LLM simulator tier: asks a model, through our own drivers (any `provider:model`, the way
// `m3 run` creates them), for the return a failed tool would have given. The reply is checked
// (JSON valid against the tool's output schema when it declares one; JSON when every real
// example is JSON; never empty or an error text) and asked for once more when it fails; after
// that the caller falls through to the template. It never throws.
import { Ajv, type ValidateFunction } from 'ajv';
import type { EnvMap } from '../config/env-file.js';
import { isToolErrorText } from '../core/tool-result-contract.js';
import type { Message } from '../core/messages.js';
import { createDriver } from '../llm/registry.js';
import { generateWithRetry } from '../llm/retry.js';
import type { ModelDriver } from '../llm/types.js';
import type { CatalogTool } from '../mcp/types.js';
import { buildSimulatorPrompt, retryNote, simulatorSystemPrompt, type SimulatorExample } from './simulator-prompt.js';

export interface SimulatorOptions {
  /** `provider:model` (M3_MOCK_LLM_MODEL). */
  model: string;
  env: EnvMap;
  /** Per-request timeout (M3_LLM_TIMEOUT). */
  timeoutMs: number;
  maxTokens?: number;
}

export type SimulationResult = { ok: true; text: string; attempts: number } | { ok: false; reason: string; attempts: number };

const attemptsPerCall = 2;

function stripFences(text: string): string {
  const trimmed = text.trim();
  const fenced = /^```[\w-]*\n([\s\S]*?)\n?```$/.exec(trimmed);
  return (fenced?.[1] ?? trimmed).trim();
}

function isJsonContainer(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object';
  } catch {
    return false;
  }
}

export class Simulator {
  private driver: Promise<ModelDriver> | undefined;
  private readonly ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false });
  private readonly validators = new Map<string, ValidateFunction | null>();

  constructor(private readonly options: SimulatorOptions) {}

  get model(): string {
    return this.options.model;
  }

  /** The driver, created on first use so a run that never needs the simulator needs no key. */
  private driverOnce(): Promise<ModelDriver> {
    this.driver ??= createDriver(this.options.model, { env: this.options.env, timeoutMs: this.options.timeoutMs });
    return this.driver;
  }

  private outputValidator(tool: CatalogTool): ValidateFunction | null {
    if (!tool.outputSchema) return null;
    let validate = this.validators.get(tool.canonicalName);
    if (validate === undefined) {
      try {
        validate = this.ajv.compile(tool.outputSchema);
      } catch {
        validate = null; // A schema ajv cannot compile cannot judge replies; JSON is still required.
      }
      this.validators.set(tool.canonicalName, validate);
    }
    return validate;
  }

  /** Why a reply cannot serve as the tool's return, or undefined when it can. */
  problemWith(text: string, tool: CatalogTool, examples: readonly SimulatorExample[]): string | undefined {
    if (text === '') return 'the reply was empty';
    if (isToolErrorText(text)) return 'the reply is an error text';
    if (tool.outputSchema) {
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        return 'the tool declares an output schema but the reply is not JSON';
      }
      const validate = this.outputValidator(tool);
      if (validate && !validate(value))
        return `the reply does not match the output schema: ${this.ajv.errorsText(validate.errors, { dataVar: 'reply', separator: '; ' })}`;
      return undefined;
    }
    if (examples.length > 0 && examples.every((example) => isJsonContainer(example.result)) && !isJsonContainer(text)) {
      return 'every real return of this tool is JSON but the reply is not';
    }
    return undefined;
  }

  async simulate(tool: CatalogTool, args: unknown, hint: string, examples: readonly SimulatorExample[], signal?: AbortSignal): Promise<SimulationResult> {
    let driver: ModelDriver;
    try {
      driver = await this.driverOnce();
    } catch (error) {
      return { ok: false, reason: `simulator model ${this.options.model} unavailable: ${(error as Error).message}`, attempts: 0 };
    }
    const messages: Message[] = [{ role: 'user', content: [{ type: 'text', text: buildSimulatorPrompt(tool, args, hint, examples) }] }];
    let reason = '';
    for (let attempt = 1; attempt <= attemptsPerCall; attempt += 1) {
      if (signal?.aborted) return { ok: false, reason: 'the task was aborted', attempts: attempt - 1 };
      try {
        const response = await generateWithRetry(
          driver,
          { system: simulatorSystemPrompt, messages, tools: [], toolChoice: 'none', maxTokens: this.options.maxTokens ?? 2048 },
          { maxRetries: 0, baseDelayMs: 0, maxDelayMs: 0, timeoutMs: this.options.timeoutMs },
          signal ? { signal } : {},
        );
        const text = stripFences(response.text);
        const problem = this.problemWith(text, tool, examples);
        if (problem === undefined) return { ok: true, text, attempts: attempt };
        reason = problem;
        messages.push(
          { role: 'assistant', content: [{ type: 'text', text: response.text }], toolCalls: [] },
          { role: 'user', content: [{ type: 'text', text: retryNote(problem) }] },
        );
      } catch (error) {
        reason = `the simulator request failed: ${(error as Error).message}`;
      }
    }
    return { ok: false, reason: `${reason} (after ${attemptsPerCall} attempts)`, attempts: attemptsPerCall };
  }
}
