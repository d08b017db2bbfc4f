// Fixture MCP server "flaky-web" (its stdio entry is flaky-web.ts; tests also run it in process
// through in-process.ts): a small web-API server built like ours (servers/shared's HTTP client,
// guarded() results with the upstream code in `_meta`), whose upstream is whatever
// FLAKY_UPSTREAM_URL points at: an HTTP fake that answers, rate-limits (429 with retry-after),
// refuses the key (401), fails (500) or stalls, or a closed port (connection refused). For the
// tool fallback layer's tests: every infrastructure failure a real web server can report.
//   lookup      GET /weather?city=  → the upstream body as text
//   forecast    GET /forecast?city=&days=  → JSON, with a declared output schema
//   needs_key   like lookup, but needs FLAKY_API_KEY (typed missing_credentials without it)
//   reject      an error result of the server's own (the model's bad argument), no upstream code
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { createHttpClient } from '../../../servers/shared/http-client.js';
import { errorResult, guarded, textResult } from '../../../servers/shared/tool-result.js';
import { requireCredential } from '../../../servers/shared/upstream-error.js';

/** A fresh flaky-web server reading FLAKY_UPSTREAM_URL, FLAKY_API_KEY and M3_HTTP_TIMEOUT_MS from `env`. */
export function createFlakyWebFixture(env: NodeJS.ProcessEnv): McpServer {
  const base = (env.FLAKY_UPSTREAM_URL ?? 'http://127.0.0.1:9').replace(/\/+$/, '');
  const http = createHttpClient({ server: 'flaky-web', retries: 0, env });
  const server = new McpServer({ name: 'flaky-web-fixture', version: '1.0.0' });

  async function weather(city: string): Promise<string> {
    return (await http.getText(`${base}/weather`, { query: { city } })).body;
  }

  server.registerTool('lookup', { description: 'Current weather for a city, as the upstream words it.', inputSchema: { city: z.string() } }, async ({ city }) =>
    guarded(async () => textResult(await weather(city))),
  );

  server.registerTool(
    'forecast',
    {
      description: 'Daily forecast for a city.',
      inputSchema: { city: z.string(), days: z.number().int().min(1).max(7) },
      outputSchema: { city: z.string(), days: z.array(z.object({ day: z.number().int(), high: z.number(), low: z.number() })) },
    },
    async ({ city, days }) =>
      guarded(async () => {
        const body = (
          await http.getJson<{ city: string; days: Array<{ day: number; high: number; low: number }> }>(`${base}/forecast`, { query: { city, days } })
        ).body;
        return { content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: body };
      }),
  );

  server.registerTool('needs_key', { description: 'Weather for a city through the keyed endpoint.', inputSchema: { city: z.string() } }, async ({ city }) =>
    guarded(async () => {
      requireCredential('FLAKY_API_KEY', 'flaky-web', env);
      return textResult(await weather(city));
    }),
  );

  server.registerTool('reject', { description: 'Refuses every city it does not know.', inputSchema: { city: z.string() } }, async ({ city }) =>
    errorResult(`unknown city "${city}": pass a city name such as Paris`),
  );
  return server;
}
