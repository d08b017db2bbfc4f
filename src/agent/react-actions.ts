// The ReAct text protocol: the words that teach it and the parser of its replies. A reply is
//   Thought: <reasoning>
//   Action:
//   ```json
//   [{"tool": "server/tool", "arguments": {...}}, ...]
//   ```
// (one object instead of a list is accepted; every listed action runs in parallel), or
//   Final Answer: <answer>
// Anything else is a malformed action: it is answered with an error observation and counted
// like an unparseable native tool call (a round of only malformed actions is illegal calling).
import { z } from 'zod';
import type { ContentPart } from '../core/content.js';
import type { ToolCall, UserMessage } from '../core/messages.js';
import { toolErrorText } from '../core/tool-result-contract.js';
import type { CatalogTool } from '../mcp/types.js';
import type { ExecutedCall } from './call-tools.js';
import { truncateForModel } from './history.js';

const actionSchema = z.strictObject({ tool: z.string().min(1), arguments: z.record(z.string(), z.unknown()).default({}) });

export interface MalformedAction {
  /** The tool name when it could be read, else ''. */
  tool: string;
  raw: string;
  problem: string;
}

export type ReactReply = { kind: 'final'; answer: string } | { kind: 'actions'; calls: ToolCall[]; malformed: MalformedAction[] };

const REACT_FORMAT_HINT =
  'Reply either with "Action:" followed by a ```json fenced list of {"tool": "server/tool", "arguments": {...}} objects, or with "Final Answer: <answer>".';

function reactToolCatalog(tools: readonly CatalogTool[]): string {
  return tools
    .map((tool) => `- ${tool.canonicalName}: ${tool.description.split('\n')[0] ?? ''}\n  arguments schema: ${JSON.stringify(tool.inputSchema)}`)
    .join('\n');
}

export function reactSystemSuffix(tools: readonly CatalogTool[]): string {
  return [
    'You call tools by writing actions as text, in exactly this format:',
    'Thought: <your reasoning>',
    'Action:',
    '```json',
    '[{"tool": "server/tool", "arguments": {"name": "value"}}]',
    '```',
    'List several actions in one block to run them in parallel. After each Action you receive an Observation with the results.',
    'When the task is complete, reply with "Final Answer: <answer>" and no Action.',
    'Available tools:',
    reactToolCatalog(tools),
  ].join('\n');
}

function parseBlock(block: string, start: number): { calls: ToolCall[]; malformed: MalformedAction[] } {
  const calls: ToolCall[] = [];
  const malformed: MalformedAction[] = [];
  let value: unknown;
  try {
    value = JSON.parse(block);
  } catch (error) {
    return {
      calls,
      malformed: [{ tool: /"tool"\s*:\s*"([^"]+)"/.exec(block)?.[1] ?? '', raw: block, problem: `not valid JSON (${(error as Error).message})` }],
    };
  }
  const entries = Array.isArray(value) ? value : [value];
  entries.forEach((entry, index) => {
    const parsed = actionSchema.safeParse(entry);
    if (parsed.success) {
      calls.push({
        id: `react-${start + calls.length + malformed.length}`,
        name: parsed.data.tool,
        arguments: parsed.data.arguments,
        argumentsText: JSON.stringify(parsed.data.arguments),
      });
    } else {
      const tool = typeof (entry as { tool?: unknown })?.tool === 'string' ? (entry as { tool: string }).tool : '';
      const where = parsed.error.issues.map((issue) => `${issue.path.join('.') || 'action'}: ${issue.message}`).join('; ');
      malformed.push({ tool, raw: JSON.stringify(entry), problem: `action ${index + 1} is not {"tool": string, "arguments": object} (${where})` });
    }
  });
  return { calls, malformed };
}

/** Reads one reply. Actions win over a final answer written in the same reply. */
export function parseReactReply(text: string): ReactReply {
  const actionAt = text.search(/^\s*Action\s*:/im);
  if (actionAt >= 0) {
    const after = text.slice(actionAt);
    const blocks = [...after.matchAll(/```(?:json)?\s*\n?([\s\S]*?)```/g)].map((match) => match[1] ?? '');
    if (blocks.length === 0)
      return { kind: 'actions', calls: [], malformed: [{ tool: '', raw: after.trim(), problem: 'an Action without a ```json fenced block' }] };
    const calls: ToolCall[] = [];
    const malformed: MalformedAction[] = [];
    for (const block of blocks) {
      const parsed = parseBlock(block.trim(), calls.length + malformed.length);
      calls.push(...parsed.calls);
      malformed.push(...parsed.malformed);
    }
    return { kind: 'actions', calls, malformed };
  }
  const final = /^\s*Final Answer\s*:\s*([\s\S]*)$/im.exec(text);
  if (final) return { kind: 'final', answer: (final[1] ?? '').trim() };
  return { kind: 'actions', calls: [], malformed: [{ tool: '', raw: text.trim(), problem: 'neither an Action nor a Final Answer' }] };
}

/** A malformed action as a recorded call: executed (it was the model's call), refused, coded. */
export function malformedCall(action: MalformedAction, id: string): ExecutedCall {
  return {
    call: { id, name: action.tool, arguments: action.raw, argumentsError: action.problem },
    canonicalName: action.tool || '(unparsed action)',
    arguments: action.raw,
    resultText: toolErrorText(`Malformed action: ${action.problem}. ${REACT_FORMAT_HINT}`),
    isError: true,
    errorCode: 'invalid_arguments',
    durationMs: 0,
    images: [],
    undeliveredImages: [],
    executed: true,
  };
}

/** The Observation turn: every result in action order, with the images tools showed. */
export function observationMessage(calls: readonly ExecutedCall[], maxChars: number): UserMessage {
  const content: ContentPart[] = [];
  const lines = calls.map(
    (call, index) => `[${index + 1}] ${call.canonicalName}${call.isError ? ' (error)' : ''}:\n${truncateForModel(call.resultText, maxChars)}`,
  );
  content.push({ type: 'text', text: `Observation:\n${lines.join('\n\n')}` });
  for (const call of calls) content.push(...call.images);
  const undeliveredImages = calls.flatMap((call) => call.undeliveredImages);
  return { role: 'user', content, ...(undeliveredImages.length > 0 ? { undeliveredImages } : {}) };
}
