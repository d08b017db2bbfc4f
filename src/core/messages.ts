// Conversation shapes the agent keeps and every driver maps to its vendor's wire format.
import type { ContentPart } from './content.js';
import type { ImageDelivery } from './image-delivery.js';

/**
 * A tool call as the model emitted it. `name` is the provider-facing function name
 * (sanitised); the agent maps it back to the canonical `server/tool` name.
 */
export interface ToolCall {
  id: string;
  name: string;
  /** Parsed arguments; `undefined` when `argumentsError` is set. */
  arguments: unknown;
  /** The raw argument text as the model produced it, when the wire format carries text. */
  argumentsText?: string;
  /** Set when the model's argument JSON could not be parsed: a model error, never `{}`. */
  argumentsError?: string;
  /**
   * Gemini's thought signature for this call: opaque, sent back unchanged with the call in
   * later requests (Gemini 3 rejects function calls without it). Other vendors ignore it.
   */
  thoughtSignature?: OpaqueToken;
}

/**
 * A vendor token that must travel with history but means nothing outside its driver. Copies of
 * the object keep it; JSON leaves it out (the store already keeps the raw exchange it came in).
 */
export class OpaqueToken {
  constructor(readonly value: string) {}
  toJSON(): undefined {
    return undefined;
  }
}

interface ToolResultItem {
  callId: string;
  /** Provider-facing function name of the call this answers. */
  name: string;
  content: ContentPart[];
  isError: boolean;
  /**
   * Images the result named or returned that never became image parts (over the per-call limit,
   * outside the allowed roots, unreadable), with the reason: the image-delivery audit lists them
   * in every request that carries this result. Drivers ignore the field.
   */
  undeliveredImages?: ImageDelivery[];
}

interface SystemMessage {
  role: 'system';
  content: string;
}

export interface UserMessage {
  role: 'user';
  content: ContentPart[];
  /** Tool images this turn was meant to carry but that never became image parts (text mode's observation). */
  undeliveredImages?: ImageDelivery[];
}

export interface AssistantMessage {
  role: 'assistant';
  content: ContentPart[];
  toolCalls: ToolCall[];
  /** The provider's reasoning for this turn, when it must be sent back (see ReasoningTrace). */
  reasoning?: ReasoningTrace;
}

/**
 * Reasoning a provider returned with a turn and requires back, unchanged, in later requests of
 * the same conversation: Anthropic thinking blocks (signed, or redacted), Responses API reasoning
 * items (encrypted when nothing is stored server-side), DeepSeek's `reasoning_content`. Only the
 * wire format that produced it sends it back; other drivers ignore it.
 */
export interface ReasoningTrace {
  format: 'anthropic' | 'openai-chat' | 'openai-responses';
  /** The readable reasoning (thinking text, summaries); may be empty when only an encrypted form exists. */
  text: string;
  /** The vendor's own blocks or items as received, replayed verbatim. */
  items: Array<Record<string, unknown>>;
}

/** All results of one round of parallel calls travel together (Anthropic needs them in one turn). */
export interface ToolResultsMessage {
  role: 'tool';
  results: ToolResultItem[];
}

export type Message = SystemMessage | UserMessage | AssistantMessage | ToolResultsMessage;

export interface ToolDefinition {
  /** Provider-safe function name (`[A-Za-z0-9_-]`, at most 64 characters). */
  name: string;
  /** Canonical `server/tool` name, for drivers such as replay that speak the benchmark's names. */
  canonicalName: string;
  description: string;
  /** JSON Schema of the arguments, passed through from MCP. */
  inputSchema: Record<string, unknown>;
}
