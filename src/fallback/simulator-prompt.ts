// The LLM simulator's prompt (StableToolBench-style, as the reference's tools/llm_simulator.py):
// the tool's name, description, input schema, output schema when it declares one, this call's
// arguments, the per-tool output contract and a few real returns of the same tool, with rules
// that ask for plausible near-matches for meaningful queries and valid but unrelated results
// for nonsense ones.
import type { CatalogTool } from '../mcp/types.js';
import { clip } from '../core/number-format.js';

export interface SimulatorExample {
  arguments: unknown;
  result: string;
}

/** Long examples are cut so a handful of them cannot crowd out the call itself. */
const maxExampleChars = 3000;

export const simulatorSystemPrompt =
  "You are a high-fidelity simulator of the real external API behind an MCP tool. Reply with the tool's return payload only: no explanation, no preamble, no markdown fences.";

export function buildSimulatorPrompt(tool: CatalogTool, args: unknown, contractHint: string, examples: readonly SimulatorExample[]): string {
  const sections = [
    `Tool: ${tool.canonicalName}`,
    `Description:\n${tool.description || '(none given)'}`,
    `Input JSON schema:\n${JSON.stringify(tool.inputSchema)}`,
  ];
  if (tool.outputSchema) sections.push(`Output JSON schema (the payload must be one JSON value valid against it):\n${JSON.stringify(tool.outputSchema)}`);
  sections.push(`Output contract (match this type, layout and style exactly):\n${contractHint}`);
  if (examples.length > 0) {
    const shown = examples.map(
      (example, index) =>
        `Example ${index + 1}\nArguments: ${JSON.stringify(example.arguments)}\nReturn:\n${clip(example.result, maxExampleChars, { marker: `\n[... cut at ${maxExampleChars} characters]` })}`,
    );
    sections.push(
      `Real returns of this tool for other arguments (follow their layout; do not copy their facts unless the arguments match):\n\n${shown.join('\n\n')}`,
    );
  }
  sections.push(`This call's arguments:\n${JSON.stringify(args ?? {})}`);
  sections.push(
    [
      'Rules:',
      '- Behave like the real API: for meaningful query keywords return plausible, near-matching items with realistic names, identifiers, URLs, numbers and dates.',
      '- For an unrelated or nonsense query return unrelated but structurally valid results (or the empty result the real API gives).',
      '- Respect count arguments (n, limit, max_results, ...) and keep values consistent with each other and with the arguments.',
      "- The reply is used directly as the tool's return: same type and shape as the contract, nothing else.",
    ].join('\n'),
  );
  return sections.join('\n\n');
}

/** Appended for the one retry after a rejected reply. */
export function retryNote(reason: string): string {
  return `Your previous reply was rejected: ${reason}. Answer again with only the payload.`;
}
