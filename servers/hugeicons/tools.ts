// The tools of the `hugeicons-mcp` MCP server: the reference's five tools (servers/hugeicons/src/index.ts),
// same names, schemas and two-space JSON answers; its McpError texts become tool errors in the
// same words. Two deliberate differences: no agnost telemetry, and a failing search service is
// a typed outage (the reference answered "[]" then, indistinguishable from "no icon matches").
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { UpstreamError } from '../shared/upstream-error.js';
import { errorResult, guarded, textResult } from '../shared/tool-result.js';
import { allGlyphs, glyphByStyle, loadIcons, searchIcons } from './hugeicons-api.js';
import { platformUsage, platforms } from './platform-usage.js';

const styles = [
  'bulk-rounded',
  'duotone-rounded',
  'solid-rounded',
  'solid-sharp',
  'solid-standard',
  'stroke-rounded',
  'stroke-sharp',
  'stroke-standard',
  'twotone-rounded',
] as const;
const iconName = z.string().describe("The name of the icon (e.g., 'home-01', 'notification-02')");
const pretty = (value: unknown) => textResult(JSON.stringify(value, null, 2));

/** Non-outage failures answered as `${prefix}: ${message}`, the reference's McpError text. */
async function prefixed(prefix: string | undefined, body: () => Promise<CallToolResult>): Promise<CallToolResult> {
  return guarded(async () => {
    try {
      return await body();
    } catch (error) {
      if (error instanceof UpstreamError) throw error;
      const message = error instanceof Error ? error.message : 'Unknown error';
      return errorResult(prefix ? `${prefix}: ${message}` : message);
    }
  });
}

const blank = (value: string) => value.trim() === '';

export function registerHugeiconsTools(server: McpServer): void {
  const annotations = { readOnlyHint: true, openWorldHint: true };
  server.registerTool(
    'list_icons',
    {
      description: 'List all available Hugeicons icons.\nArgs:\n  (none)\nReturns:\n  result (text): JSON string containing the full icon index.',
      inputSchema: {},
      annotations,
    },
    async () => prefixed(undefined, async () => pretty(await loadIcons())),
  );
  server.registerTool(
    'search_icons',
    {
      description:
        'Search icons by name or tags.\nArgs:\n  query (string): Search query string; multiple terms may be comma-separated.\nReturns:\n  result (text): JSON string with matching icons and metadata.',
      inputSchema: { query: z.string().describe('Search query to find relevant icons. Separate multiple searches with commas') },
      annotations,
    },
    async ({ query }) =>
      blank(query) ? errorResult('Search query must be a non-empty string') : prefixed(undefined, async () => pretty(await searchIcons(query.trim()))),
  );
  server.registerTool(
    'get_platform_usage',
    {
      description:
        'Get platform-specific usage instructions for Hugeicons.\nArgs:\n  platform (string): Target platform such as react, vue, or html.\nReturns:\n  result (text): JSON text describing usage instructions.',
      inputSchema: { platform: z.enum(platforms).describe('Platform name (react, vue, angular, svelte, react-native, flutter, html)') },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ platform }) => pretty(platformUsage[platform]),
  );
  server.registerTool(
    'get_icon_glyphs',
    {
      description:
        'Get all glyphs for an icon across supported styles.\nArgs:\n  icon_name (string): Icon identifier name.\nReturns:\n  result (text): JSON string listing glyphs by style.',
      inputSchema: { icon_name: iconName },
      annotations,
    },
    async ({ icon_name }) =>
      prefixed('Failed to get icon glyphs', async () => {
        if (blank(icon_name)) throw new Error('Icon name must be a non-empty string');
        return pretty(await allGlyphs(icon_name.trim()));
      }),
  );
  server.registerTool(
    'get_icon_glyph_by_style',
    {
      description:
        'Get the glyph for an icon in a specific style.\nArgs:\n  icon_name (string): Icon identifier name.\n  style (string): Icon style value.\nReturns:\n  result (text): JSON string with the requested glyph entry.',
      inputSchema: { icon_name: iconName, style: z.enum(styles).describe('The icon style') },
      annotations,
    },
    async ({ icon_name, style }) =>
      prefixed('Failed to get icon glyph by style', async () => {
        if (blank(icon_name)) throw new Error('Icon name must be a non-empty string');
        return pretty(await glyphByStyle(icon_name.trim(), style));
      }),
  );
}
