// The tools of the `okx` MCP server: the reference's `get_price` and `get_candlesticks`
// (servers/okx-mcp/src/index.ts), same schemas and defaults (bar "1m", limit 100; an empty bar
// or a zero limit also falls back to them, as `||` did there) and the same two-space JSON.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { createHttpClient } from '../shared/http-client.js';
import { errorResult, guarded, textResult } from '../shared/tool-result.js';
import { fetchCandles, fetchTicker } from './market.js';

const instrument = z.string().describe('Instrument ID (e.g. BTC-USDT)');

const missingInstrument = () => errorResult('Missing required parameter: instrument');

export function registerOkxTools(server: McpServer): void {
  const http = createHttpClient({ server: 'okx' });
  server.registerTool(
    'get_price',
    {
      description:
        'Get the latest price for an OKX trading instrument.\nArgs:\n  instrument (string): Instrument ID such as BTC-USDT.\nReturns:\n  result (text): JSON string with the current price and basic ticker fields.',
      inputSchema: { instrument },
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    async (args) =>
      guarded(async () => (args.instrument ? textResult(JSON.stringify(await fetchTicker(http, args.instrument), null, 2)) : missingInstrument())),
  );
  server.registerTool(
    'get_candlesticks',
    {
      description:
        'Get recent candlestick data for an OKX trading instrument.\nArgs:\n  instrument (string): Instrument ID such as BTC-USDT.\n  bar (string): Candlestick interval like 1m or 1H.\n  limit (number): Number of candlesticks to return.\nReturns:\n  result (text): JSON string with an array of candlestick records.',
      inputSchema: {
        instrument,
        bar: z.string().default('1m').describe('Time interval (e.g. 1m, 5m, 1H, 1D)'),
        limit: z.number().default(100).describe('Number of candlesticks (max 100)'),
      },
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    async (args) =>
      guarded(async () => {
        if (!args.instrument) return missingInstrument();
        const candles = await fetchCandles(http, args.instrument, args.bar || '1m', args.limit || 100);
        return textResult(JSON.stringify(candles, null, 2));
      }),
  );
}
