// Fixture MCP server "slow": sleeps for a while and honours cancellation, logging to stderr
// whether a sleep finished or was cancelled so tests can see the cancel reached the server.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { runStdioServer } from '../../../servers/shared/run-stdio.js';

const server = new McpServer({ name: 'slow-fixture', version: '1.0.0' });

server.registerTool(
  'sleep',
  { description: 'Waits `ms` milliseconds, then answers; stops early when the request is cancelled.', inputSchema: { ms: z.number().int().nonnegative() } },
  async ({ ms }, extra) => {
    const began = Date.now();
    const finished = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(true), ms);
      extra.signal.addEventListener('abort', () => {
        clearTimeout(timer);
        resolve(false);
      });
    });
    process.stderr.write(`${finished ? 'slept' : 'cancelled after'} ${Date.now() - began} ms\n`);
    return { content: [{ type: 'text', text: `slept ${ms} ms` }] };
  },
);

server.registerTool('ping', { description: 'Answers at once.' }, async () => ({ content: [{ type: 'text', text: 'pong' }] }));

await runStdioServer(server);
