// Neutral request → OpenAI Responses API body (`openai-responses:<model>`). Pure. Unlike Chat
// Completions, a `function_call_output` can hold images, so tool images stay with their call.
// Stateless: `store: false`, the whole history is sent each time. Reasoning models are asked
// for encrypted reasoning (`include: ["reasoning.encrypted_content"]`, which other models
// refuse), and the reasoning items of each turn go back before its calls, so the model keeps
// its reasoning from round to round although nothing is stored server-side.
import type OpenAI from 'openai';
import type { ContentPart } from '../../core/content.js';
import type { Message } from '../../core/messages.js';
import type { GenerateRequest } from '../types.js';
import { historyArguments } from '../tool-arguments.js';
import { isReasoningModel } from './model-families.js';
import { toDataUrl, type OmittableParameter } from './request.js';

type InputItem = OpenAI.Responses.ResponseInputItem;
type InputContent = OpenAI.Responses.ResponseInputText | OpenAI.Responses.ResponseInputImage;
export type ResponsesRequestBody = OpenAI.Responses.ResponseCreateParamsNonStreaming;

function inputContent(parts: readonly ContentPart[]): InputContent[] {
  return parts.flatMap((part): InputContent[] => {
    if (part.type === 'image') return [{ type: 'input_image', image_url: toDataUrl(part), detail: 'auto' }];
    return part.text ? [{ type: 'input_text', text: part.text }] : [];
  });
}

function toItems(message: Exclude<Message, { role: 'system' }>): InputItem[] {
  if (message.role === 'user') return [{ role: 'user', content: inputContent(message.content) }];
  if (message.role === 'assistant') {
    const text = message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
    const reasoning = message.reasoning?.format === 'openai-responses' ? (message.reasoning.items as unknown as InputItem[]) : [];
    const items: InputItem[] = [...reasoning, ...(text ? [{ role: 'assistant' as const, content: text }] : [])];
    for (const call of message.toolCalls) {
      // Unparsable argument text is replayed as the model wrote it; the API stores it as a string.
      items.push({ type: 'function_call', call_id: call.id, name: call.name, arguments: historyArguments(call).text });
    }
    return items;
  }
  return message.results.map((result): InputItem => {
    const content = inputContent(result.content);
    const onlyText = content.every((part) => part.type === 'input_text');
    const text = content.flatMap((part) => (part.type === 'input_text' ? [part.text] : [])).join('\n') || '(no output)';
    const prefixed = result.isError ? `Error: ${text}` : text;
    if (onlyText) return { type: 'function_call_output', call_id: result.callId, output: prefixed };
    return { type: 'function_call_output', call_id: result.callId, output: result.isError ? [{ type: 'input_text', text: 'Error:' }, ...content] : content };
  });
}

export function toResponsesRequest(
  request: GenerateRequest,
  model: string,
  omit: ReadonlySet<OmittableParameter> = new Set(),
): { body: ResponsesRequestBody; warnings: string[]; notSent: string[] } {
  const warnings: string[] = [];
  const notSent: string[] = [];
  const instructions = [request.system ?? '', ...request.messages.flatMap((message) => (message.role === 'system' ? [message.content] : []))]
    .filter((text) => text.trim())
    .join('\n\n');
  const input = request.messages.flatMap((message) => (message.role === 'system' ? [] : toItems(message)));
  const reasoningModel = isReasoningModel(model);
  const body: ResponsesRequestBody = { model, input, max_output_tokens: request.maxTokens, store: false };
  if (reasoningModel) body.include = ['reasoning.encrypted_content'];
  if (instructions) body.instructions = instructions;
  if (request.tools.length > 0) {
    body.tools = request.tools.map((tool) => ({
      type: 'function' as const,
      name: tool.name,
      description: tool.description,
      parameters: tool.inputSchema,
      strict: false,
    }));
    if (request.toolChoice === 'none') body.tool_choice = 'none';
    else if (!omit.has('parallel_tool_calls')) body.parallel_tool_calls = true;
  }
  if (request.temperature !== undefined) {
    if (reasoningModel || omit.has('temperature')) notSent.push(`temperature=${request.temperature} not sent: ${model} only takes the default`);
    else body.temperature = request.temperature;
  }
  if (request.seed !== undefined) warnings.push(`seed ${request.seed} ignored: the Responses API does not take a seed`);
  return { body, warnings, notSent };
}
