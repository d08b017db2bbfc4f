// What the mock remembers between requests, so it can enforce the rules real APIs keep across
// turns: reasoning issued with a tool call must come back with that call (Anthropic's signed
// thinking, DeepSeek's reasoning_content, Responses reasoning items, Gemini thought signatures),
// unchanged. Signatures are HMACs of the reasoning text, so an edited block is detected too.
import { createHmac } from 'node:crypto';

export interface IssuedReasoning {
  /** Anthropic: the signed thinking block or the redacted block issued with the call. */
  thinking?: { type: 'thinking'; thinking: string; signature: string } | { type: 'redacted_thinking'; data: string };
  /** DeepSeek (Chat Completions): `reasoning_content` of the message that made the call. */
  reasoningContent?: string;
  /** Responses API: the reasoning item issued before the call (with its encrypted content, if asked for). */
  reasoningItem?: { id: string; encryptedContent?: string };
  /** Gemini 3: the thought signature on the first call of the turn. */
  thoughtSignature?: string;
  /** OpenRouter: the `reasoning_details` of the message that made the call. */
  reasoningDetails?: unknown[];
}

const secret = 'm3bench-mock-llm';

export function mockSignature(kind: string, text: string): string {
  return createHmac('sha256', secret).update(`${kind}\n${text}`).digest('base64');
}

export class MockMemory {
  private readonly calls = new Map<string, IssuedReasoning>();
  private readonly signatures = new Set<string>();

  remember(callId: string, reasoning: IssuedReasoning): void {
    this.calls.set(callId, reasoning);
    if (reasoning.thoughtSignature) this.signatures.add(reasoning.thoughtSignature);
    if (reasoning.thinking?.type === 'redacted_thinking') this.signatures.add(reasoning.thinking.data);
  }

  issued(callId: string): IssuedReasoning | undefined {
    return this.calls.get(callId);
  }

  isIssuedSignature(signature: string): boolean {
    return this.signatures.has(signature);
  }
}
