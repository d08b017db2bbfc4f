// Deterministic call classification: the error code a call was recorded with first (our
// prediction files, src/core/tool-result-contract.ts), then unknown tools, arguments that fail
// the tool's JSON Schema, and error / not-found / empty results read from the recorded result
// text. What the rules cannot decide is marked `undecided` with a documented fallback, so a
// judge can take it, or the fallback applies when no judge is configured.
import { Ajv, type ValidateFunction } from 'ajv';
import { isInfrastructureErrorCode, isUnknownToolText } from '../../core/tool-result-contract.js';
import type { ToolCatalog } from './catalog.js';
import { analyseResult, resultText } from './result-patterns.js';

export const callCategories = ['unknown_tool', 'invalid_arguments', 'resource_not_found', 'success'] as const;
export type CallCategory = (typeof callCategories)[number];

export type RuleVerdict =
  | { kind: 'decided'; label: CallCategory; rule: string; detail?: string }
  /** Timeouts, crashes, credentials, rate limits, 5xx: not the model's doing, so never counted. */
  | { kind: 'infrastructure'; rule: string; detail: string }
  | { kind: 'undecided'; fallback: CallCategory; rule: string; detail: string };

export interface CallInput {
  name: unknown;
  arguments: unknown;
  result: unknown;
  /**
   * What the record says about the outcome: `{ code }` for a failed call (its recorded code),
   * `{ code: undefined }` for a call the record says succeeded; absent when the record does not
   * say (older files, the reference's), and the text decides.
   */
  recorded?: { code: string | undefined };
}

/**
 * Compiles and caches one validator per tool. Types are coerced ("5" passes as an integer)
 * because the servers' own validators (pydantic lax mode, zod coercion in FastMCP / TS SDK
 * servers) accept such values; a schema that does not compile is skipped, not fatal.
 */
export class SchemaValidators {
  private readonly ajv = new Ajv({ strict: false, allErrors: true, coerceTypes: true, validateFormats: false });
  private readonly cache = new Map<string, ValidateFunction | undefined>();

  validate(
    toolName: string,
    schema: Record<string, unknown>,
    value: unknown,
  ): { ok: true } | { ok: false; message: string } | { ok: 'skipped'; message: string } {
    let validator = this.cache.get(toolName);
    if (!this.cache.has(toolName)) {
      try {
        // Draft declarations (e.g. 2020-12) are dropped: the keywords tools use are shared by all drafts.
        const { $schema: _ignored, ...rest } = schema;
        validator = this.ajv.compile(rest);
      } catch {
        validator = undefined;
      }
      this.cache.set(toolName, validator);
    }
    if (!validator) return { ok: 'skipped', message: `input schema of ${toolName} does not compile` };
    // Coercion rewrites the data in place; the recorded prediction must stay untouched.
    const copy: unknown = structuredClone(value);
    if (validator(copy)) return { ok: true };
    return { ok: false, message: this.ajv.errorsText(validator.errors, { dataVar: 'arguments' }) };
  }
}

function parseArguments(raw: unknown): { ok: true; value: Record<string, unknown> } | { ok: false; detail: string } {
  let value = raw;
  if (typeof raw === 'string') {
    if (raw.trim() === '') return { ok: true, value: {} };
    try {
      value = JSON.parse(raw);
    } catch {
      return { ok: false, detail: 'arguments are a string that is not JSON' };
    }
  }
  if (value === undefined || value === null) return { ok: true, value: {} };
  if (typeof value !== 'object' || Array.isArray(value))
    return { ok: false, detail: `arguments are ${Array.isArray(value) ? 'an array' : typeof value}, not an object` };
  return { ok: true, value: value as Record<string, unknown> };
}

/** The verdict a recorded code settles on its own, if any. */
function verdictFromCode(code: string | undefined, text: string): RuleVerdict | undefined {
  if (code === undefined) return undefined;
  const detail = text.trim().slice(0, 200);
  if (code === 'unknown_tool') return { kind: 'decided', label: 'unknown_tool', rule: 'error_code', detail };
  if (code === 'invalid_arguments') return { kind: 'decided', label: 'invalid_arguments', rule: 'error_code', detail };
  if (isInfrastructureErrorCode(code)) return { kind: 'infrastructure', rule: 'error_code', detail: code };
  return undefined;
}

/** Applies the rules in order; the first that fires decides. */
export function classifyCallByRules(call: CallInput, catalog: ToolCatalog | undefined, validators: SchemaValidators): RuleVerdict {
  const text = resultText(call.result);
  if (typeof call.name !== 'string' || call.name.trim() === '') {
    return { kind: 'decided', label: 'unknown_tool', rule: 'missing_name', detail: 'the call has no tool name' };
  }
  const fromCode = verdictFromCode(call.recorded?.code, text);
  if (fromCode) return fromCode;
  if (!call.recorded && isUnknownToolText(text)) {
    return { kind: 'decided', label: 'unknown_tool', rule: 'result_unknown_tool', detail: text.trim().slice(0, 200) };
  }
  const recordedError = call.recorded ? call.recorded.code !== undefined : undefined;
  const entry = catalog?.tools.get(call.name);
  if (catalog && !entry) {
    // A normal answer proves the tool ran: the catalog is older than the run, not the model wrong.
    if (analyseResult(text, recordedError).kind === 'ok') {
      return { kind: 'decided', label: 'success', rule: 'normal_result_not_in_catalog', detail: `${call.name} is not in ${catalog.source}` };
    }
    return { kind: 'decided', label: 'unknown_tool', rule: 'not_in_catalog', detail: `${call.name} is not in ${catalog.source}` };
  }
  const args = parseArguments(call.arguments);
  if (!args.ok) return { kind: 'decided', label: 'invalid_arguments', rule: 'arguments_not_object', detail: args.detail };
  if (entry?.inputSchema) {
    const checked = validators.validate(entry.canonicalName, entry.inputSchema, args.value);
    if (checked.ok === false) return { kind: 'decided', label: 'invalid_arguments', rule: 'schema_violation', detail: checked.message };
  }
  const finding = analyseResult(text, recordedError);
  switch (finding.kind) {
    case 'empty':
      return { kind: 'decided', label: 'resource_not_found', rule: 'empty_result', detail: text.trim().slice(0, 80) };
    case 'invalid_arguments':
    case 'resource_not_found':
      return { kind: 'decided', label: finding.kind, rule: finding.rule, detail: finding.detail };
    case 'infrastructure':
      return { kind: 'infrastructure', rule: finding.rule, detail: finding.detail };
    case 'unexplained_error':
      // The tool exists and raised on these arguments: the closest reference category is 2.
      return { kind: 'undecided', fallback: 'invalid_arguments', rule: 'unexplained_error', detail: finding.detail };
    case 'ok':
      return { kind: 'decided', label: 'success', rule: 'normal_result' };
  }
}
