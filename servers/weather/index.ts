// The weather MCP server (stdio): `node --import tsx servers/weather/index.ts`.
// Nothing but MCP goes to stdout; diagnostics go to stderr.
import { runStdioServer } from '../shared/run-stdio.js';
import { createWeatherServer } from './server.js';

try {
  await runStdioServer(createWeatherServer());
  process.stderr.write('weather MCP server ready on stdio\n');
} catch (error) {
  process.stderr.write(`weather MCP server failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
