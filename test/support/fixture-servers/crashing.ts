// Fixture MCP server "crashing": a tool that kills the process in the middle of a call, and a
// per-process counter that shows a restart happened (it starts again from 1), and tools that
// never answer (`hang`, the process stays responsive) or block the process (`freeze`).
// If the file named by CRASH_ON_START_FILE exists, the server dies at start-up (failed restarts).
import { existsSync } from 'node:fs';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { runStdioServer } from '../../../servers/shared/run-stdio.js';

const marker = process.env.CRASH_ON_START_FILE;
if (marker && existsSync(marker)) {
  process.stderr.write('crash-on-start marker present; exiting\n');
  process.exit(7);
}

const server = new McpServer({ name: 'crashing-fixture', version: '1.0.0' });
let count = 0;

server.registerTool('counter', { description: 'Returns how often it was called in this process.' }, async () => {
  count += 1;
  return { content: [{ type: 'text', text: String(count) }] };
});

server.registerTool('hang', { description: 'Never answers (until the process dies).' }, async () => new Promise(() => undefined));

// Blocks the whole process (no ping is answered either) without burning CPU: a wedged server.
server.registerTool('freeze', { description: 'Blocks the process for a minute.' }, async () => {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 60_000);
  return { content: [{ type: 'text', text: 'thawed' }] };
});

server.registerTool(
  'crash',
  {
    description: 'Exits the process while the call is in flight.',
    inputSchema: { code: z.number().int().optional(), signal: z.boolean().optional(), stderr: z.string().optional() },
  },
  async ({ code, signal, stderr }) => {
    if (stderr) process.stderr.write(`${stderr}\n`);
    process.stderr.write(`fatal: fixture crash requested (pid ${process.pid})\n`);
    if (signal) process.kill(process.pid, 'SIGKILL');
    setTimeout(() => process.exit(code ?? 3), 20);
    return new Promise(() => undefined);
  },
);

process.stderr.write(`crashing fixture ready (pid ${process.pid})\n`);
await runStdioServer(server);
