// Fixture MCP server "noisy": floods stderr at start-up and on demand, to check that stderr is
// drained (a full pipe would block the child), logged to a file and tailed in memory.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { runStdioServer } from '../../../servers/shared/run-stdio.js';

const startupLines = Number(process.env.NOISY_STARTUP_LINES ?? '2000');
for (let index = 0; index < startupLines; index += 1) process.stderr.write(`startup noise line ${index} ${'x'.repeat(80)}\n`);

const server = new McpServer({ name: 'noisy-fixture', version: '1.0.0' });

server.registerTool('shout', { description: 'Writes `lines` lines to stderr.', inputSchema: { lines: z.number().int().positive() } }, async ({ lines }) => {
  for (let index = 0; index < lines; index += 1) process.stderr.write(`shout line ${index}\n`);
  return { content: [{ type: 'text', text: `wrote ${lines} lines` }] };
});

await runStdioServer(server);
