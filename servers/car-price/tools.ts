// The tools of the `car-price` MCP server: the reference's get_car_brands and search_brand_model_price
// (the reference project's servers/car-price-mcp-main/server.py + app.py), same schemas and answers. What the reference
// answered as "Error: could not fetch brands (status N)" for a refused request stays in those
// words (as a tool error); outages are typed (the reference returned them as text too).
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { createHttpClient } from '../shared/http-client.js';
import { errorResult, guarded, textResult } from '../shared/tool-result.js';
import { brandModelPriceText, carBrandsText } from './answers.js';
import { FipeClient, FipeStatusError } from './fipe.js';

async function worded(refused: (status: number) => string, body: () => Promise<string>): Promise<CallToolResult> {
  return guarded(async () => {
    try {
      return textResult(await body());
    } catch (error) {
      if (error instanceof FipeStatusError) return errorResult(refused(error.status));
      throw error;
    }
  });
}

export function registerCarPriceTools(server: McpServer): void {
  // The free mirror is shared by everyone: two requests at a time at most.
  const fipe = new FipeClient(createHttpClient({ server: 'car-price', maxConcurrentPerHost: 2 }));
  server.registerTool(
    'get_car_brands',
    {
      description: 'Get all available car brands from the FIPE table.\nArgs:\n  (none)\nReturns:\n  result (str): the list of brand names and their codes.',
      inputSchema: {},
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    async () =>
      worded(
        (status) => `Error: Could not fetch car brands (Status: ${status})`,
        () => carBrandsText(fipe),
      ),
  );
  server.registerTool(
    'search_brand_model_price',
    {
      description:
        'Search car model prices for a brand using a model name keyword.\nArgs:\n  brand_name (str): Car brand name to search, such as a manufacturer name.\n  model_keyword (str): Substring or keyword of the model name.\nReturns:\n  result (str): the matching models and their latest FIPE prices.',
      inputSchema: {
        brand_name: z.string().describe('Car brand name to search, such as a manufacturer name.'),
        model_keyword: z.string().describe('Substring or keyword of the model name.'),
      },
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    async ({ brand_name, model_keyword }) => {
      if (!brand_name.trim()) return errorResult('Please provide brand_name.');
      if (!model_keyword.trim()) return errorResult('Please provide model_keyword.');
      return worded(
        (status) => `Error: could not fetch brands (status ${status})`,
        () => brandModelPriceText(fipe, brand_name.trim(), model_keyword.trim()),
      );
    },
  );
}
