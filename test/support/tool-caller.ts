// Calling one of our MCP servers from a test through a real SDK client: the JSON answer,
// the plain-text error, and an `ok` variant that fails the test with the server's message.
// `context` sends the host's call context (src/core/tool-result-contract.ts) in the request's `_meta`.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CALL_CONTEXT_META_KEY, type CallContext } from '../../src/core/tool-result-contract.js';

export interface ToolAnswer {
  isError: boolean;
  text: string;
  json: Record<string, unknown>;
}

export function toolCaller(client: () => Client) {
  async function call(name: string, args: Record<string, unknown>, context?: CallContext): Promise<ToolAnswer> {
    const request = { name, arguments: args, ...(context ? { _meta: { [CALL_CONTEXT_META_KEY]: context } } : {}) };
    const result = (await client().callTool(request)) as { isError?: boolean; content: Array<{ type: string; text?: string }> };
    const text = result.content.find((part) => part.type === 'text')?.text ?? '';
    let json: Record<string, unknown> = {};
    try {
      json = JSON.parse(text) as Record<string, unknown>;
    } catch {
      // error answers are plain text
    }
    return { isError: result.isError === true, text, json };
  }
  async function ok(name: string, args: Record<string, unknown>, context?: CallContext): Promise<Record<string, unknown>> {
    const answer = await call(name, args, context);
    if (answer.isError) throw new Error(`${name} failed: ${answer.text}`);
    return answer.json;
  }
  return { call, ok };
}
