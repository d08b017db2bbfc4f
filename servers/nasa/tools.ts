// The 19 tools of the reference nasa-mcp server (servers/nasa-mcp in M3-Bench), registered in the
// reference's order with its names, argument names, defaults and answer layouts.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { guarded } from '../shared/tool-result.js';
import { apodAsteroidTools } from './apod-asteroids.js';
import { donkiEventTools } from './donki-events.js';
import { donkiReportTools } from './donki-reports.js';
import { epicTools } from './epic.js';
import { marsExoplanetTools } from './mars-exoplanet.js';
import { NasaApi } from './nasa-api.js';
import type { NasaTool } from './text-format.js';

const nasaTools: NasaTool[] = [...apodAsteroidTools, ...donkiEventTools, ...donkiReportTools, ...epicTools, ...marsExoplanetTools];

/** `api`: the upstream client; by default one built from process.env as it is now (base URLs, key). */
export function registerNasaTools(server: McpServer, api: NasaApi = new NasaApi()): void {
  for (const tool of nasaTools) {
    server.registerTool(tool.name, { description: tool.description, inputSchema: tool.shape }, async (args: Record<string, unknown>) =>
      guarded(() => tool.run(api, args)),
    );
  }
}
