// Tool-call arguments as models emit them. MCP tools take a JSON object; anything else is a
// model error that is recorded on the ToolCall (`argumentsError`), never silently turned into {}.
// Shared by all vendors: OpenAI sends argument text, Anthropic and Gemini send JSON values.
// `arguments` holds plain numbers (for the tool call); `exactArguments` recovers, from the
// argument text, which numbers the model wrote as floats, for the prediction file.
import { containsFloats, parseJsonKeepingFloats } from '../core/json-numbers.js';

export interface ParsedArguments {
  arguments: unknown;
  argumentsError?: string;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}

/** Checks an already-decoded arguments value (Anthropic `input`, Gemini `args`). */
export function checkArgumentsValue(value: unknown): ParsedArguments {
  if (value === undefined) return { arguments: {} };
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) return { arguments: value };
  return { arguments: undefined, argumentsError: `tool arguments must be a JSON object, got ${describe(value)}` };
}

/**
 * Parses argument text (OpenAI `function.arguments`). Empty text means "no arguments", the
 * convention for tools without parameters; text that does not parse is an error.
 */
export function parseArgumentsText(text: string): ParsedArguments {
  if (text.trim() === '') return { arguments: {} };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { arguments: undefined, argumentsError: `tool arguments are not valid JSON (${reason})` };
  }
  return checkArgumentsValue(value);
}

/**
 * The arguments a call is sent back with in later requests, the same on every driver: the parsed
 * object, or `{}` for a call whose arguments did not parse (or were not an object). Vendors and
 * compatible servers (vLLM, llama-server, DashScope) parse history arguments and would refuse the
 * whole request over the model's broken text; the raw text stays in the call record
 * (`argumentsText`), and the call's error result already tells the model what went wrong.
 */
export function historyArguments(call: { arguments: unknown; argumentsText?: string | undefined; argumentsError?: string | undefined }): {
  value: Record<string, unknown>;
  text: string;
} {
  if (call.argumentsError !== undefined) return { value: {}, text: '{}' };
  const value = (checkArgumentsValue(call.arguments).arguments ?? {}) as Record<string, unknown>;
  return { value, text: call.argumentsText ?? JSON.stringify(value) };
}

/** Ids for calls the vendor left unnamed: `<name>_<round>_<index>`, stable across replays. */
export function synthesizeCallId(name: string, round: number, index: number): string {
  return `${name}_${round}_${index + 1}`;
}

/** Which round a response belongs to: one more than the tool-calling turns already in history. */
export function roundOf(messages: ReadonlyArray<{ role: string; toolCalls?: readonly unknown[] }>): number {
  return messages.filter((message) => message.role === 'assistant' && (message.toolCalls?.length ?? 0) > 0).length + 1;
}

function sameValue(marked: unknown, plain: unknown): boolean {
  try {
    return JSON.stringify(marked) === JSON.stringify(plain);
  } catch {
    return false;
  }
}

/**
 * The arguments as recorded in predictions: `parsed` (what the tool got), with each number the
 * model wrote as a float (`2.0`, `40.50`) carried as a JsonFloat, so the prediction file keeps
 * the form Python's json.dumps would write. Falls back to `parsed` whenever the text does not
 * give exactly the same value (no text, malformed text, a normalised value).
 */
export function exactArguments(call: { argumentsText?: string | undefined; argumentsError?: string | undefined }, parsed: unknown): unknown {
  if (call.argumentsError || !call.argumentsText || !/[.eE]/.test(call.argumentsText)) return parsed;
  let marked: unknown;
  try {
    marked = parseJsonKeepingFloats(call.argumentsText);
  } catch {
    return parsed;
  }
  return containsFloats(marked) && sameValue(marked, parsed) ? marked : parsed;
}
