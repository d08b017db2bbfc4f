// Fixture MCP server "meta" (its stdio entry is meta.ts; tests also run it in process through
// in-process.ts): the two `_meta` channels of src/core/tool-result-contract.ts.
// `echo_meta` answers with the request `_meta` it received (so tests see the call context the
// host sent); `upstream_fail` answers an error result carrying an upstream-failure code in its
// result `_meta`, the way our web servers report a down or rate-limited API.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { UPSTREAM_ERROR_CODES } from '../../../src/core/tool-result-contract.js';
import { upstreamErrorResult } from '../../../servers/shared/tool-result.js';
import { UpstreamError } from '../../../servers/shared/upstream-error.js';

/** A fresh meta server. */
export function createMetaFixture(): McpServer {
  const server = new McpServer({ name: 'meta-fixture', version: '1.0.0' });
  server.registerTool(
    'echo_meta',
    { description: 'Returns the request _meta it received, as JSON.', inputSchema: { note: z.string().optional() } },
    async (_args, extra) => ({
      content: [{ type: 'text', text: JSON.stringify(extra._meta ?? null) }],
    }),
  );

  server.registerTool(
    'upstream_fail',
    {
      description: 'Fails as if its upstream web API did, with the given code in the result _meta.',
      inputSchema: { code: z.enum(UPSTREAM_ERROR_CODES), status: z.number().int().optional(), retryAfterSec: z.number().optional() },
    },
    async ({ code, status, retryAfterSec }) =>
      upstreamErrorResult(
        new UpstreamError(code, `api.example.test answered ${status ?? 'nothing'} (${code})`, {
          upstream: 'api.example.test',
          ...(status !== undefined ? { status } : {}),
          ...(retryAfterSec !== undefined ? { retryAfterSec } : {}),
        }),
      ),
  );
  return server;
}
