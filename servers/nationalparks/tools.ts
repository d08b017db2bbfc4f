// The reference nationalparks server's six tools (mcp-server-nationalparks) over the NPS API v1
// (developer.nps.gov/api/v1, key in the X-Api-Key header). Each answers as the reference did:
// JSON indented by two, {total, limit, start, <records>, <records>ByPark} for the list tools,
// the formatted park for getParkDetails, and its {error, ...} texts for an invalid state code or
// an unknown park. Upstream failures are typed errors instead of the reference's {"error": "Server error"}.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { createHttpClient, upstreamBaseUrl } from '../shared/http-client.js';
import { registerKeyedTool } from '../shared/keyed-tool.js';
import { textResult } from '../shared/tool-result.js';
import { requireCredential } from '../shared/upstream-error.js';
import { formatAlerts, formatCampgrounds, formatEvents, formatParkDetails, formatParks, formatVisitorCenters } from './formatters.js';

const SERVER = 'nationalparks';
const KEY_NAMES = ['NPS_API_KEY'] as const;
const http = createHttpClient({ server: SERVER });

const STATE_CODES =
  'AL AK AZ AR CA CO CT DE FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY DC AS GU MP PR VI UM'.split(
    ' ',
  );

type Json = Record<string, unknown>;
interface NpsPage {
  total?: string;
  limit?: string;
  start?: string;
  data?: Json[];
}

async function nps(path: string, params: Record<string, string | number | undefined>): Promise<NpsPage> {
  const key = requireCredential(KEY_NAMES, SERVER);
  const endpoint = `${upstreamBaseUrl('M3_UPSTREAM_NPS_URL', 'https://developer.nps.gov')}/api/v1${path}`;
  return (await http.getJson<NpsPage>(endpoint, { query: params, headers: { 'X-Api-Key': key } })).body ?? {};
}

/**
 * The reference computed min(limit, 50) but then spread the arguments over it, so a given limit
 * is sent as is and only a missing one becomes 10.
 */
function pageParams<T extends { limit?: number | undefined }>(args: T): T & { limit: number } {
  return { limit: args.limit ? Math.min(args.limit, 50) : 10, ...args } as T & { limit: number };
}

const json = (value: unknown) => textResult(JSON.stringify(value, null, 2));

function paged(page: NpsPage, field: string, records: Json[], byParkField: string) {
  const byPark: Record<string, Json[]> = {};
  for (const record of records) {
    const code = String(record.parkCode);
    byPark[code] = [...(byPark[code] ?? []), record];
  }
  return {
    total: Number.parseInt(String(page.total), 10),
    limit: Number.parseInt(String(page.limit), 10),
    start: Number.parseInt(String(page.start), 10),
    [field]: records,
    [byParkField]: byPark,
  };
}

const parkFilter = (what: string) => ({
  parkCode: z
    .string()
    .optional()
    .describe(`Filter ${what} by park code (e.g., "yose" for Yosemite). Multiple parks can be comma-separated (e.g., "yose,grca").`),
  limit: z.number().optional().describe(`Maximum number of ${what} to return (default: 10, max: 50)`),
  start: z.number().optional().describe('Start position for results (useful for pagination)'),
});

export function registerNationalParksTools(server: McpServer): void {
  const tool = <S extends Record<string, z.ZodType>>(name: string, description: string, shape: S, run: (args: z.infer<z.ZodObject<S>>) => Promise<unknown>) =>
    registerKeyedTool(server, KEY_NAMES, { name, description, shape }, async (args) => {
      const result = await run(args);
      return typeof result === 'string' ? textResult(result) : json(result);
    });

  tool(
    'findParks',
    'Search for national parks using location or filter criteria.\nArgs:\n  (see schema): Use FindParksSchema fields such as state, name, and activities.\nReturns:\n  result (text): JSON string with matching park records.',
    {
      stateCode: z
        .string()
        .optional()
        .describe('Filter parks by state code (e.g., "CA" for California, "NY" for New York). Multiple states can be comma-separated (e.g., "CA,OR,WA")'),
      q: z.string().optional().describe('Search term to filter parks by name or description'),
      limit: z.number().optional().describe('Maximum number of parks to return (default: 10, max: 50)'),
      start: z.number().optional().describe('Start position for results (useful for pagination)'),
      activities: z.string().optional().describe('Filter by available activities (e.g., "hiking,camping")'),
    },
    async (args) => {
      const invalid = (args.stateCode ?? '')
        .split(',')
        .map((state) => state.trim().toUpperCase())
        .filter((state) => args.stateCode && !STATE_CODES.includes(state));
      if (invalid.length > 0) return JSON.stringify({ error: `Invalid state code(s): ${invalid.join(', ')}`, validStateCodes: STATE_CODES });
      const page = await nps('/parks', pageParams(args));
      return {
        total: Number.parseInt(String(page.total), 10),
        limit: Number.parseInt(String(page.limit), 10),
        start: Number.parseInt(String(page.start), 10),
        parks: formatParks(page.data ?? []),
      };
    },
  );

  tool(
    'getParkDetails',
    'Get detailed information for a specific national park.\nArgs:\n  (see schema): Use GetParkDetailsSchema fields such as park code.\nReturns:\n  result (text): JSON string describing the selected park.',
    { parkCode: z.string().describe('The park code of the national park (e.g., "yose" for Yosemite, "grca" for Grand Canyon)') },
    async ({ parkCode }) => {
      const page = await nps('/parks', { parkCode, limit: 1 });
      const park = page.data?.[0];
      if (!park) return { error: 'Park not found', message: `No park found with park code: ${parkCode}` };
      return formatParkDetails(park);
    },
  );

  // The four list tools differ only in endpoint, formatter, field names and extra filters.
  const listTools = [
    {
      name: 'getAlerts',
      path: '/alerts',
      what: 'alerts',
      field: 'alerts',
      byPark: 'alertsByPark',
      format: formatAlerts,
      intro: 'Get current alerts for national parks.',
      schema: 'GetAlertsSchema',
      hint: 'park codes or state',
      lists: 'active alerts',
      q: 'alerts by title or description',
    },
    {
      name: 'getVisitorCenters',
      path: '/visitorcenters',
      what: 'visitor centers',
      field: 'visitorCenters',
      byPark: 'visitorCentersByPark',
      format: formatVisitorCenters,
      intro: 'Get information about visitor centers and operating hours.',
      schema: 'GetVisitorCentersSchema',
      hint: 'park code or state',
      lists: 'visitor centers',
      q: 'visitor centers by name or description',
    },
    {
      name: 'getCampgrounds',
      path: '/campgrounds',
      what: 'campgrounds',
      field: 'campgrounds',
      byPark: 'campgroundsByPark',
      format: formatCampgrounds,
      intro: 'Get information about available campgrounds and amenities.',
      schema: 'GetCampgroundsSchema',
      hint: 'park code or state',
      lists: 'campgrounds',
      q: 'campgrounds by name or description',
    },
    {
      name: 'getEvents',
      path: '/events',
      what: 'events',
      field: 'events',
      byPark: 'eventsByPark',
      format: formatEvents,
      intro: 'Find upcoming events at national parks.',
      schema: 'GetEventsSchema',
      hint: 'park code or date filters',
      lists: 'events',
      q: 'events by title or description',
    },
  ];
  const eventDates = {
    dateStart: z.string().optional().describe('Start date for filtering events (format: YYYY-MM-DD)'),
    dateEnd: z.string().optional().describe('End date for filtering events (format: YYYY-MM-DD)'),
  };
  for (const list of listTools) {
    tool(
      list.name,
      `${list.intro}\nArgs:\n  (see schema): Use ${list.schema} fields such as ${list.hint}.\nReturns:\n  result (text): JSON string listing ${list.lists}.`,
      { ...parkFilter(list.what), ...(list.name === 'getEvents' ? eventDates : {}), q: z.string().optional().describe(`Search term to filter ${list.q}`) },
      async (args) => {
        // Every argument of these tools is a string or a number (zod checked them).
        const page = await nps(list.path, pageParams(args as { limit?: number } & Record<string, string | number | undefined>));
        return paged(page, list.field, list.format(page.data ?? []), list.byPark);
      },
    );
  }
}
