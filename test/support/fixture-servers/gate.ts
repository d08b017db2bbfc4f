// Fixture MCP server "gate": `wait` answers once a file exists (or the call is cancelled), so a
// test can hold a run's tasks in flight exactly as long as it needs (lease and Ctrl-C tests).
// With GATE_STUBBORN=1 it ignores the end of stdin and SIGTERM, so the host needs seconds to
// close it (the SDK's SIGKILL ends it): a window in which a test can send a second Ctrl-C.
import { existsSync } from 'node:fs';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
import { runStdioServer } from '../../../servers/shared/run-stdio.js';

const server = new McpServer({ name: 'gate-fixture', version: '1.0.0' });

server.registerTool(
  'wait',
  { description: 'Answers once `file` exists; stops early when the request is cancelled.', inputSchema: { file: z.string() } },
  async ({ file }, extra) => {
    const opened = await new Promise<boolean>((resolve) => {
      const timer = setInterval(() => {
        if (!existsSync(file)) return;
        clearInterval(timer);
        resolve(true);
      }, 50);
      extra.signal.addEventListener('abort', () => {
        clearInterval(timer);
        resolve(false);
      });
    });
    return { content: [{ type: 'text', text: opened ? 'gate open' : 'cancelled' }] };
  },
);

if (process.env.GATE_STUBBORN === '1') {
  process.on('SIGTERM', () => process.stderr.write('gate: ignoring SIGTERM\n'));
  // Stays alive after stdin ends (nothing else holds the event loop once the gates are
  // cancelled), so the host's close has to wait out its grace periods and SIGKILL it.
  setInterval(() => undefined, 1000);
  await server.connect(new StdioServerTransport());
} else {
  await runStdioServer(server);
}
