// Tool-call arguments as models emit them. MCP tools take a JSON object; anything else is a
// model error that is recorded on the ToolCall (`argumentsError`), never silently turned into {}.
// Shared by all vendors: OpenAI sends argument text, Anthropic and Gemini send JSON values.

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

/** Ids for calls the vendor left unnamed: `<name>_<round>_<index>`, stable across replays. */
export function synthesizeCallId(name: string, round: number, index: number): string {
  return `${name}_${round}_${index + 1}`;
}

/** Which round a response belongs to: one more than the tool-calling turns already in history. */
export function roundOf(messages: ReadonlyArray<{ role: string; toolCalls?: readonly unknown[] }>): number {
  return messages.filter((message) => message.role === 'assistant' && (message.toolCalls?.length ?? 0) > 0).length + 1;
}
