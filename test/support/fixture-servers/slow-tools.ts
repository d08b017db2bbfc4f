// Fixture MCP server "slow" (its stdio entry is slow.ts; tests also run it in process through
// in-process.ts): sleeps for a while and honours cancellation, logging whether a sleep finished
// or was cancelled (to stderr on stdio) so tests can see the cancel reached the server.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

/** A fresh slow server; `log` receives its lines (the stdio entry writes them to stderr). */
export function createSlowFixture(log: (line: string) => void): McpServer {
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
      log(`${finished ? 'slept' : 'cancelled after'} ${Date.now() - began} ms`);
      return { content: [{ type: 'text', text: `slept ${ms} ms` }] };
    },
  );

  // Calls that meet: each waits until `count` calls are in flight at once (answering "met") or until
  // `waitMs` passes (answering how many it saw). Calls made one after another never meet, however
  // fast the machine, so a test of parallel calls needs no clock.
  let waiting: Array<() => void> = [];
  server.registerTool(
    'rendezvous',
    {
      description: 'Answers "met N" once N calls are in flight together, else "alone after waitMs ms (k in flight)".',
      inputSchema: { count: z.number().int().positive(), waitMs: z.number().int().positive() },
    },
    async ({ count, waitMs }) => {
      const met = await new Promise<boolean>((resolve) => {
        const release = () => {
          clearTimeout(timer);
          resolve(true);
        };
        const timer = setTimeout(() => {
          waiting = waiting.filter((other) => other !== release);
          resolve(false);
        }, waitMs);
        waiting.push(release);
        if (waiting.length >= count) {
          const all = waiting;
          waiting = [];
          for (const other of all) other();
        }
      });
      return { content: [{ type: 'text', text: met ? `met ${count}` : `alone after ${waitMs} ms (${waiting.length + 1} in flight)` }] };
    },
  );

  server.registerTool('ping', { description: 'Answers at once.' }, async () => ({ content: [{ type: 'text', text: 'pong' }] }));
  return server;
}
