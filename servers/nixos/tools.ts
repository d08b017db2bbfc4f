// The 18 tools of the reference mcp-nixos server (servers/mcp-nixos in M3-Bench, v1.0.3), in its
// registration order, with its names, argument names, defaults and plain-text answers.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { guarded } from '../shared/tool-result.js';
import { ChannelCache } from './channels.js';
import { flakeStats, searchFlakes } from './flakes.js';
import { nixhubTools } from './nixhub.js';
import { nixosTools } from './nixos-tools.js';
import { darwinTools, homeManagerTools } from './option-tools.js';
import type { NixosContext, NixosTool } from './text.js';
import { NixosHttp } from './upstreams.js';

const flakeTools: NixosTool[] = [
  {
    name: 'nixos_flakes_stats',
    description:
      'Get aggregate statistics about available NixOS flakes.\nArgs:\nReturns:\n  result (str): Plain-text summary of flake counts, types, and contributors.',
    shape: {},
    run: (context) => flakeStats(context),
  },
  {
    name: 'nixos_flakes_search',
    description:
      'Search NixOS flakes by name, description, owner, or repository.\nArgs:\n  query (str): Search term for flake name, description, owner, or repo.\n  limit (int): Maximum number of results to return (1–100).\n  channel (str): Ignored; flakes use a separate index.\nReturns:\n  result (str): Plain-text list of unique flakes with basic metadata.',
    shape: { query: z.string(), limit: z.number().int().default(20), channel: z.string().default('unstable') },
    run: (context, args) => searchFlakes(context, String(args.query), Number(args.limit ?? 20)),
  },
];

const allNixosTools: NixosTool[] = [...nixosTools, ...homeManagerTools, ...darwinTools, ...flakeTools, ...nixhubTools];

/** The upstream client (built from process.env as it is now) and its channel cache, shared by the tools of one server. */
function createNixosContext(): NixosContext {
  const http = new NixosHttp();
  return { http, channels: new ChannelCache(http) };
}

export function registerNixosTools(server: McpServer, context: NixosContext = createNixosContext()): void {
  for (const tool of allNixosTools) {
    server.registerTool(tool.name, { description: tool.description, inputSchema: tool.shape }, async (args: Record<string, unknown>) =>
      guarded(() => tool.run(context, args)),
    );
  }
}
