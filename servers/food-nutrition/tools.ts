// The reference food_nutrition_mcp server's one tool (the reference project's servers/food_nutrition_mcp.py) over the
// Edamam Food Database API v2: the parser turns "1 medium apple" into a food id, a measure and
// a quantity, the nutrients endpoint totals them, and the answer lists ten common nutrients as
// "- <label>: <quantity with 2 decimals> <unit>" under "Nutrition for: <query>". The app id and
// key travel as query parameters (app_id, app_key), as Edamam requires.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { createHttpClient, upstreamBaseUrl } from '../shared/http-client.js';
import { registerKeyedTool, requireCredentials } from '../shared/keyed-tool.js';
import { textResult } from '../shared/tool-result.js';
import { UpstreamClientError } from '../shared/upstream-error.js';

const SERVER = 'food_nutrition_mcp';
const KEY_NAMES = ['EDAMAM_APP_ID', 'EDAMAM_APP_KEY'] as const;
const http = createHttpClient({ server: 'food-nutrition' });
const shownNutrients = ['ENERC_KCAL', 'PROCNT', 'FAT', 'CHOCDF', 'FIBTG', 'SUGAR', 'NA', 'CA', 'FE', 'VITC'];

type Parsed = { parsed?: Array<{ food?: { foodId?: string }; measure?: { uri?: string }; quantity?: number }> };
type Nutrients = { totalNutrients?: Record<string, { label: string; quantity: number; unit: string }> };

const cannotParse = 'Could not parse the input. Try using simpler food names.';

async function edamam<T>(path: string, options: { query?: Record<string, string>; json?: unknown }): Promise<T> {
  const creds = requireCredentials(KEY_NAMES, SERVER);
  const endpoint = `${upstreamBaseUrl('M3_UPSTREAM_EDAMAM_URL', 'https://api.edamam.com')}/api/food-database/v2${path}`;
  const query = { app_id: creds.EDAMAM_APP_ID, app_key: creds.EDAMAM_APP_KEY, ...(options.query ?? {}) };
  try {
    return (await http.getJson<T>(endpoint, { query, ...(options.json !== undefined ? { method: 'POST' as const, json: options.json } : {}) })).body;
  } catch (error) {
    // A 4xx about the food (Edamam answers 404 for an unknown food id) is the model's problem.
    if (error instanceof UpstreamClientError) throw new Error(`Error calling ${path.slice(1)} API: HTTP ${error.status} ${error.body.slice(0, 300)}`);
    throw error;
  }
}

export function registerFoodNutritionTools(server: McpServer): void {
  registerKeyedTool(
    server,
    KEY_NAMES,
    {
      name: 'get_nutrition',
      description:
        'Get nutritional information for a described food item using Edamam APIs.\nArgs:\n  query (Optional[str]): Food name with quantity description.\n  food (Optional[str]): Alias for query when provided instead.\nReturns:\n  result (str): Summary of key nutrients and units or an error message.',
      shape: { query: z.string().nullish(), food: z.string().nullish() },
    },
    async ({ query, food }) => {
      const text = query || food;
      if (!text) return textResult("Missing input query. Try something like '1 banana' or '2 eggs'.");
      const parsed = (await edamam<Parsed>('/parser', { query: { ingr: text } }))?.parsed?.[0];
      const foodId = parsed?.food?.foodId;
      const measureURI = parsed?.measure?.uri;
      if (!foodId || !measureURI) return textResult(cannotParse);
      const ingredients = [{ quantity: parsed.quantity ?? 1, measureURI, foodId }];
      const totals = (await edamam<Nutrients>('/nutrients', { json: { ingredients } }))?.totalNutrients ?? {};
      if (Object.keys(totals).length === 0) return textResult('No nutrients found.');
      const lines = [`Nutrition for: ${text}`];
      for (const code of shownNutrients) {
        const nutrient = totals[code];
        if (nutrient) lines.push(`- ${nutrient.label}: ${Number(nutrient.quantity).toFixed(2)} ${nutrient.unit}`);
      }
      return textResult(lines.join('\n'));
    },
  );
}
