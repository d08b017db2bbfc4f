// The food_nutrition_mcp MCP server (stdio): `node --import tsx servers/food-nutrition/index.ts`.
// get_nutrition over the Edamam Food Database API. EDAMAM_APP_ID and EDAMAM_APP_KEY are read at
// call time: without them the server starts and lists its tool, and calls fail with missing_credentials.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { runStdioServer } from '../shared/run-stdio.js';
import { registerFoodNutritionTools } from './tools.js';

try {
  const server = new McpServer({ name: 'food-nutrition', version: '0.1.0' });
  registerFoodNutritionTools(server);
  await runStdioServer(server);
  process.stderr.write('food-nutrition MCP server ready on stdio\n');
} catch (error) {
  process.stderr.write(`food-nutrition MCP server failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
