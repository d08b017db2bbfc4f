// An in-memory tool host for the robustness tests: three tools whose answers are computed here
// (text, JSON, an image rendered by sharp), so the conditions' wrappers are checked on their own.
import sharp from 'sharp';
import type { CatalogTool, ToolCallOutcome, ToolHost } from '../../src/mcp/types.js';

const tool = (server: string, name: string, description: string, properties: Record<string, unknown>): CatalogTool => ({
  canonicalName: `${server}/${name}`,
  server,
  tool: name,
  functionName: `${server}__${name}`,
  description,
  inputSchema: { type: 'object', properties },
});

export const fakeTools: CatalogTool[] = [
  tool('web', 'search', 'Searches the web for a query and returns the top results.', { q: { type: 'string' } }),
  tool('web', 'lookup', 'Looks up one entry by its id.', { id: { type: 'string' } }),
  tool('img', 'render', 'Renders a small picture.', { width: { type: 'number' } }),
  tool('mail', 'send', 'Sends an e-mail.', { to: { type: 'string' } }),
];

export interface FakeHost extends ToolHost {
  calls: Array<{ name: string; args: Record<string, unknown> }>;
}

export function fakeHost(): FakeHost {
  const calls: FakeHost['calls'] = [];
  const byCanonical = new Map(fakeTools.map((entry) => [entry.canonicalName, entry]));
  const byFunction = new Map(fakeTools.map((entry) => [entry.functionName, entry]));
  return {
    calls,
    tools: fakeTools,
    findByCanonical: (name) => byCanonical.get(name),
    findByFunctionName: (name) => byFunction.get(name),
    async callTool(name, args): Promise<ToolCallOutcome> {
      calls.push({ name, args });
      if (name === 'img/render') {
        const png = await sharp({ create: { width: 400, height: 200, channels: 3, background: { r: 30, g: 120, b: 200 } } })
          .png()
          .toBuffer();
        return {
          canonicalName: name,
          content: [{ type: 'image', data: png.toString('base64'), mimeType: 'image/png' }],
          isError: false,
          text: '',
          durationMs: 1,
        };
      }
      const text = JSON.stringify({ tool: name, args, results: ['first', 'second'] });
      return { canonicalName: name, content: [{ type: 'text', text }], isError: false, text, durationMs: 1 };
    },
    status: () => [],
    toolsHash: () => 'fake',
    close: async () => undefined,
  };
}
