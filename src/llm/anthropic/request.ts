// Neutral request → Anthropic Messages body. Pure. The Messages API wants strict turns: system
// text in `system`, user/assistant alternating, all results of one round as `tool_result` blocks
// (images inside them) leading ONE user turn, and never a final assistant turn, which the API
// would treat as a prefill to continue. Two rules span turns: a history with tool blocks must
// define tools (a request that offers none still lists the tools the history used, and forbids
// calls with tool_choice none), and the thinking blocks a model returned with its calls go back
// first in that assistant turn, signatures unchanged.
import type Anthropic from '@anthropic-ai/sdk';
import type { ContentPart, ImagePart } from '../../core/content.js';
import type { AssistantMessage, Message, ToolResultsMessage } from '../../core/messages.js';
import type { GenerateRequest } from '../types.js';
import { anthropicImageTypes } from '../image-types.js';
import { historyArguments } from '../tool-arguments.js';

type Block = Anthropic.ContentBlockParam;
type Turn = { role: 'user' | 'assistant'; content: Block[] };
export type AnthropicRequestBody = Anthropic.MessageCreateParamsNonStreaming;

const supportedImageTypes = new Set(anthropicImageTypes);
type SupportedImageType = 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp';

/**
 * Added when history would otherwise end on the assistant.
 * @internal Exported for its tests.
 */
export const continueText = 'Continue.';

class Mapping {
  readonly warnings: string[] = [];
  readonly turns: Turn[] = [];

  private image(image: ImagePart): Anthropic.ImageBlockParam | Anthropic.TextBlockParam {
    if (!supportedImageTypes.has(image.mediaType)) {
      this.warnings.push(`an image of type ${image.mediaType} was replaced by a placeholder (Anthropic takes JPEG, PNG, GIF, WebP)`);
      return { type: 'text', text: `[image of unsupported type ${image.mediaType} omitted]` };
    }
    return { type: 'image', source: { type: 'base64', media_type: image.mediaType as SupportedImageType, data: image.data } };
  }

  parts(parts: readonly ContentPart[]): Array<Anthropic.TextBlockParam | Anthropic.ImageBlockParam> {
    // Empty text blocks are rejected by the API.
    return parts.flatMap((part) => (part.type === 'text' ? (part.text ? [{ type: 'text' as const, text: part.text }] : []) : [this.image(part)]));
  }

  assistant(message: AssistantMessage): Block[] {
    // Signed (or redacted) thinking must open the turn exactly as the API sent it.
    const thinking = message.reasoning?.format === 'anthropic' ? (message.reasoning.items as unknown as Block[]) : [];
    const blocks: Block[] = [...thinking];
    blocks.push(...message.content.flatMap((part) => (part.type === 'text' && part.text ? [{ type: 'text' as const, text: part.text }] : [])));
    for (const call of message.toolCalls) {
      // A call whose arguments did not parse goes back as {} (the one policy: tool-arguments.ts historyArguments).
      blocks.push({ type: 'tool_use', id: call.id, name: call.name, input: historyArguments(call).value });
    }
    return blocks;
  }

  toolResults(message: ToolResultsMessage): Block[] {
    return message.results.map((result): Anthropic.ToolResultBlockParam => {
      const content = this.parts(result.content);
      return {
        type: 'tool_result',
        tool_use_id: result.callId,
        content: content.length > 0 ? content : [{ type: 'text', text: '(no output)' }],
        ...(result.isError ? { is_error: true } : {}),
      };
    });
  }

  push(role: Turn['role'], blocks: Block[]): void {
    if (blocks.length === 0) return;
    const last = this.turns.at(-1);
    if (last && last.role === role) last.content.push(...blocks);
    else this.turns.push({ role, content: blocks });
  }

  add(message: Exclude<Message, { role: 'system' }>): void {
    if (message.role === 'user') this.push('user', this.parts(message.content));
    else if (message.role === 'assistant') this.push('assistant', this.assistant(message));
    else this.push('user', this.toolResults(message));
  }

  /** tool_result blocks must lead their user turn; the API rejects anything before them. */
  finish(): Turn[] {
    for (const turn of this.turns) {
      if (turn.role === 'user') {
        turn.content.sort((a, b) => Number(b.type === 'tool_result') - Number(a.type === 'tool_result'));
      }
    }
    if (this.turns[0]?.role !== 'user') {
      this.turns.unshift({ role: 'user', content: [{ type: 'text', text: '(conversation start)' }] });
      this.warnings.push('the conversation did not start with a user turn; a placeholder user turn was added');
    }
    if (this.turns.at(-1)?.role === 'assistant') {
      this.turns.push({ role: 'user', content: [{ type: 'text', text: continueText }] });
      this.warnings.push('the conversation ended on an assistant turn; a user turn was added so it is not taken as a prefill');
    }
    return this.turns;
  }
}

/**
 * The API refuses tool_use / tool_result blocks in a request that defines no tools. A request
 * that offers no tools (final answer, planning) lists the tools its history used instead, with
 * calls forbidden; their schemas are not known here, so each takes any object.
 */
function toolsOfHistory(messages: readonly Message[]): Anthropic.Tool[] {
  const names = new Set(messages.flatMap((message) => (message.role === 'assistant' ? message.toolCalls.map((call) => call.name) : [])));
  return [...names].map((name) => ({
    name,
    description: 'Used earlier in this conversation; not available in this request.',
    input_schema: { type: 'object' as const },
  }));
}

export function toAnthropicRequest(request: GenerateRequest, model: string): { body: AnthropicRequestBody; warnings: string[] } {
  const mapping = new Mapping();
  const systemTexts = request.system ? [request.system] : [];
  for (const message of request.messages) {
    if (message.role === 'system') systemTexts.push(message.content);
    else mapping.add(message);
  }
  const body: AnthropicRequestBody = { model, max_tokens: request.maxTokens, messages: mapping.finish() };
  const system = systemTexts.filter((text) => text.trim()).join('\n\n');
  if (system) body.system = system;
  if (request.tools.length > 0) {
    body.tools = request.tools.map((tool) => ({
      name: tool.name,
      description: tool.description,
      input_schema: { ...tool.inputSchema, type: 'object' as const },
    }));
    if (request.toolChoice === 'none') body.tool_choice = { type: 'none' };
  } else {
    const used = toolsOfHistory(request.messages);
    if (used.length > 0) {
      body.tools = used;
      body.tool_choice = { type: 'none' };
    }
  }
  // The Messages API no longer takes `temperature` (removed from SDK 1.x), so it is dropped visibly.
  if (request.temperature !== undefined) mapping.warnings.push(`temperature ${request.temperature} ignored: the Anthropic Messages API does not take it`);
  return { body, warnings: mapping.warnings };
}
