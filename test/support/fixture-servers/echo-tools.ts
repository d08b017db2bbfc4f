// Fixture MCP server "echo" (its stdio entry is echo.ts; tests also run it in process through
// in-process.ts): plain text, isError results, environment inspection and every content kind
// (resource, resource link, audio, structured content) for normalisation tests.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

/** A fresh echo server; it reads the environment and working directory of the process it runs in. */
export function createEchoFixture(): McpServer {
  const server = new McpServer({ name: 'echo-fixture', version: '1.0.0' });
  server.registerTool('echo', { description: 'Returns the given text.', inputSchema: { text: z.string() } }, async ({ text }) => ({
    content: [{ type: 'text', text }],
  }));

  server.registerTool('fail', { description: 'Always fails with isError.', inputSchema: { message: z.string().optional() } }, async ({ message }) => ({
    content: [{ type: 'text', text: message ?? 'fixture failure' }],
    isError: true,
  }));

  server.registerTool(
    'print_env',
    { description: 'Returns the values of the named environment variables (null when unset).', inputSchema: { names: z.array(z.string()) } },
    async ({ names }) => ({
      content: [{ type: 'text', text: JSON.stringify(Object.fromEntries(names.map((name) => [name, process.env[name] ?? null]))) }],
    }),
  );

  server.registerTool('env_names', { description: 'Lists every environment variable name the server sees.' }, async () => ({
    content: [{ type: 'text', text: JSON.stringify(Object.keys(process.env).sort()) }],
  }));

  server.registerTool('cwd', { description: 'Returns the working directory.' }, async () => ({
    content: [{ type: 'text', text: process.cwd() }],
  }));

  server.registerTool('mixed', { description: 'Returns one content item of every non-text kind.' }, async () => ({
    content: [
      { type: 'resource', resource: { uri: 'file:///fixture/notes.txt', mimeType: 'text/plain', text: 'embedded notes' } },
      {
        type: 'resource',
        resource: { uri: 'file:///fixture/blob.bin', mimeType: 'application/octet-stream', blob: Buffer.from([1, 2, 3, 4]).toString('base64') },
      },
      { type: 'resource_link', uri: 'file:///fixture/linked.png', name: 'linked.png', mimeType: 'image/png' },
      { type: 'audio', data: Buffer.alloc(16).toString('base64'), mimeType: 'audio/wav' },
    ],
  }));

  server.registerTool('structured', { description: 'Returns structured content only.' }, async () => ({
    content: [],
    structuredContent: { total: 42, items: ['a', 'b'] },
  }));
  return server;
}
