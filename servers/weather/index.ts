// The weather MCP server (stdio): `node --import tsx servers/weather/index.ts`.
// Nothing but MCP goes to stdout; diagnostics go to stderr.
import { runStdioMain } from '../shared/run-stdio.js';
import { createWeatherServer } from './server.js';

await runStdioMain('weather', createWeatherServer);
