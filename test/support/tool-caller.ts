// Calling one of our MCP servers from a test through a real SDK client: the JSON answer,
// the plain-text error, and an `ok` variant that fails the test with the server's message.
// `meta` is sent as the request's `_meta` (e.g. the host's call context).
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

export interface ToolAnswer {
  isError: boolean;
  text: string;
  json: Record<string, unknown>;
}

export function toolCaller(client: () => Client) {
  async function call(name: string, args: Record<string, unknown>, meta?: Record<string, unknown>): Promise<ToolAnswer> {
    const result = (await client().callTool({ name, arguments: args, ...(meta ? { _meta: meta } : {}) })) as { isError?: boolean; content: Array<{ type: string; text?: string }> };
    const text = result.content.find((part) => part.type === 'text')?.text ?? '';
    let json: Record<string, unknown> = {};
    try {
      json = JSON.parse(text) as Record<string, unknown>;
    } catch {
      // error answers are plain text
    }
    return { isError: result.isError === true, text, json };
  }
  async function ok(name: string, args: Record<string, unknown>, meta?: Record<string, unknown>): Promise<Record<string, unknown>> {
    const answer = await call(name, args, meta);
    if (answer.isError) throw new Error(`${name} failed: ${answer.text}`);
    return answer.json;
  }
  return { call, ok };
}
