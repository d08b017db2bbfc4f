// The 19 tools of the reference's google_maps_mcp.py, registered in one place (the stdio entry
// index.ts and the in-process tests both call registerGoogleMapsTools), in the reference's groups:
// legacy web services, the v1 APIs, Roads, and the image tools.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { registerImageTools } from './image-tools.js';
import { registerLegacyTools } from './legacy-tools.js';
import { registerRoadsTools } from './roads-tools.js';
import { registerV1Tools } from './v1-tools.js';

export function registerGoogleMapsTools(server: McpServer): void {
  registerLegacyTools(server);
  registerV1Tools(server);
  registerRoadsTools(server);
  registerImageTools(server);
}
