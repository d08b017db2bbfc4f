// Neutral request → Chat Completions body. Pure: no SDK runtime, no I/O.
// OpenAI `tool` messages carry text only, so images returned by tools travel in one `user`
// message placed right after the tool messages of that round, each labelled with its call.
// Preset quirks (presets.ts) and what OpenAI's reasoning models refuse (model-families.ts) shape
// the body; a parameter the API named as unsupported is left out (`omit`, learned by the driver).
import type OpenAI from 'openai';
import { imagesOf, textOf, type ContentPart, type ImagePart } from '../../core/content.js';
import type { AssistantMessage, Message, ToolResultsMessage } from '../../core/messages.js';
import type { ChatPreset } from '../../config/provider-definitions.js';
import { historyArguments } from '../tool-arguments.js';
import type { GenerateRequest } from '../types.js';
import { isReasoningModel, refusesParallelToolCalls } from './model-families.js';

type ChatMessage = OpenAI.Chat.ChatCompletionMessageParam;
type ContentPartParam = OpenAI.Chat.ChatCompletionContentPart;
/** The SDK's body plus the fields compatible servers add (DeepSeek reasoning, preset extras). */
export type ChatRequestBody = OpenAI.Chat.ChatCompletionCreateParamsNonStreaming & Record<string, unknown>;

export function toDataUrl(image: ImagePart): string {
  return `data:${image.mediaType};base64,${image.data}`;
}

/** Body fields the driver may leave out after the API named them unsupported for a model. */
export type OmittableParameter = 'parallel_tool_calls' | 'temperature' | 'seed';

/** @internal Exported for its tests. */
export function imagePlaceholder(preset: ChatPreset): string {
  return `[image omitted: ${preset.name} models here take text only]`;
}

class Mapping {
  readonly warnings: string[] = [];
  private omitted = 0;
  constructor(readonly preset: ChatPreset) {}

  /** Text parts stay text; images become data-URL parts, or placeholders for text-only models. */
  userContent(parts: readonly ContentPart[]): string | ContentPartParam[] {
    if (imagesOf(parts).length === 0) return textOf(parts);
    if (!this.preset.acceptsImages) {
      this.omitted += imagesOf(parts).length;
      return parts.map((part) => (part.type === 'text' ? part.text : imagePlaceholder(this.preset))).join('\n');
    }
    return parts.map(
      (part): ContentPartParam => (part.type === 'text' ? { type: 'text', text: part.text } : { type: 'image_url', image_url: { url: this.imageUrl(part) } }),
    );
  }

  private imageUrl(image: ImagePart): string {
    return this.preset.imageUrl === 'base64' ? image.data : toDataUrl(image);
  }

  /** OpenRouter wants every assistant turn's reasoning_details back, unchanged. */
  private reasoningDetails(message: AssistantMessage): Record<string, unknown> {
    const items = message.reasoning?.format === 'openai-chat' ? message.reasoning.items : [];
    return this.preset.replayReasoningDetails && items.length > 0 ? { reasoning_details: items } : {};
  }

  assistant(message: AssistantMessage): ChatMessage {
    const text = textOf(message.content);
    if (message.toolCalls.length === 0) return { role: 'assistant', content: text, ...this.reasoningDetails(message) };
    // DeepSeek's thinking mode refuses a tool-call turn without the reasoning that produced it.
    const reasoning = this.preset.replayReasoning && message.reasoning?.format === 'openai-chat' ? { reasoning_content: message.reasoning.text } : {};
    return {
      role: 'assistant',
      content: text || null,
      ...reasoning,
      ...this.reasoningDetails(message),
      tool_calls: message.toolCalls.map((call) => ({
        id: call.id,
        type: 'function' as const,
        function: { name: call.name, arguments: historyArguments(call).text },
      })),
    };
  }

  toolResults(message: ToolResultsMessage): ChatMessage[] {
    const toolMessages: ChatMessage[] = [];
    const followUp: ContentPartParam[] = [];
    for (const result of message.results) {
      const images = imagesOf(result.content);
      let text = textOf(result.content);
      if (images.length > 0 && this.preset.acceptsImages) {
        text = `${text}${text ? '\n' : ''}(${images.length} image${images.length > 1 ? 's' : ''} returned; shown in the next message)`;
        images.forEach((image, index) => {
          const label = images.length > 1 ? `Image ${index + 1} of ${images.length}` : 'Image';
          followUp.push({ type: 'text', text: `${label} from tool call ${result.callId} (${result.name}):` });
          followUp.push({ type: 'image_url', image_url: { url: this.imageUrl(image) } });
        });
      } else if (images.length > 0) {
        this.omitted += images.length;
        text = `${text}${text ? '\n' : ''}${images.map(() => imagePlaceholder(this.preset)).join('\n')}`;
      }
      const body = text || '(no output)';
      toolMessages.push({ role: 'tool', tool_call_id: result.callId, content: result.isError ? `Error: ${body}` : body });
    }
    if (followUp.length > 0) toolMessages.push({ role: 'user', content: followUp });
    return toolMessages;
  }

  message(message: Message): ChatMessage[] {
    switch (message.role) {
      case 'system':
        return [{ role: 'system', content: message.content }];
      case 'user':
        return [{ role: 'user', content: this.userContent(message.content) }];
      case 'assistant':
        return [this.assistant(message)];
      case 'tool':
        return this.toolResults(message);
    }
  }

  finish(): string[] {
    if (this.omitted > 0) {
      this.warnings.push(`${this.omitted} image(s) replaced by a text placeholder: the ${this.preset.name} preset is text-only`);
    }
    return this.warnings;
  }
}

/** Parameters the model is known (or was found) to refuse, with the reason for the run log. */
function refusedParameters(model: string, preset: ChatPreset, omit: ReadonlySet<OmittableParameter>): Map<OmittableParameter, string> {
  const refused = new Map<OmittableParameter, string>();
  for (const parameter of omit) refused.set(parameter, `${preset.name}:${model} refused it earlier in this run`);
  if (preset.name === 'openai' && refusesParallelToolCalls(model)) refused.set('parallel_tool_calls', `OpenAI's ${model} does not take it`);
  if (preset.name === 'openai' && isReasoningModel(model)) refused.set('temperature', `OpenAI's reasoning model ${model} only takes the default`);
  return refused;
}

export function toOpenAiRequest(
  request: GenerateRequest,
  model: string,
  preset: ChatPreset,
  omit: ReadonlySet<OmittableParameter> = new Set(),
): { body: ChatRequestBody; warnings: string[]; notSent: string[] } {
  const mapping = new Mapping(preset);
  const messages: ChatMessage[] = [];
  if (request.system) messages.push({ role: 'system', content: request.system });
  for (const message of request.messages) messages.push(...mapping.message(message));

  const body: ChatRequestBody = { ...preset.extraBody, model, messages, [preset.maxTokensField]: request.maxTokens };
  const wanted: Partial<Record<OmittableParameter, unknown>> = {};
  if (request.tools.length > 0) {
    body.tools = request.tools.map((tool) => ({
      type: 'function' as const,
      function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
    }));
    if (request.toolChoice === 'none') body.tool_choice = 'none';
    else if (preset.sendParallelToolCalls) wanted.parallel_tool_calls = true;
  }
  if (request.temperature !== undefined) wanted.temperature = request.temperature;
  if (request.seed !== undefined) wanted.seed = request.seed;
  const refused = refusedParameters(model, preset, omit);
  const notSent: string[] = [];
  for (const [parameter, value] of Object.entries(wanted) as Array<[OmittableParameter, unknown]>) {
    const reason = refused.get(parameter);
    if (reason === undefined) (body as Record<string, unknown>)[parameter] = value;
    else notSent.push(`${parameter}=${JSON.stringify(value)} not sent: ${reason}`);
  }
  return { body, warnings: mapping.finish(), notSent };
}
