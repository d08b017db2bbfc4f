// The tools of the `weather` MCP server: the reference's `get_weather` (the reference project's servers/weather_mcp.py), same
// arguments and the same one-sentence answer
// "Current weather in <place>: <t>°F, wind <w> mph, code <weathercode>."
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { createHttpClient } from '../shared/http-client.js';
import { guarded, textResult } from '../shared/tool-result.js';
import { fetchCurrentWeather } from './forecast.js';
import { resolvePlace } from './geocode.js';

const weatherInput = {
  location: z.string().describe('City/state name or a 5-digit U.S. ZIP code.'),
  units: z.enum(['us', 'metric']).default('us').describe('"us" for imperial units or "metric" for SI units.'),
};

export function registerWeatherTools(server: McpServer): void {
  const http = createHttpClient({ server: 'weather' });
  server.registerTool(
    'get_weather',
    {
      description:
        'Get current weather for a U.S. location using Open-Meteo with ZIP/city geocoding.\nArgs:\n  location (str): City/state name or a 5-digit U.S. ZIP code.\n  units ("us" | "metric"): "us" for imperial units or "metric" for SI units.\nReturns:\n  A plain-text sentence with the temperature, wind, weather code and place name.',
      inputSchema: weatherInput,
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    async ({ location, units }) =>
      guarded(async () => {
        const place = await resolvePlace(http, location);
        const now = await fetchCurrentWeather(http, place.latitude, place.longitude, units);
        const us = units === 'us';
        return textResult(
          `Current weather in ${place.name}: ${now.temperature}${us ? '°F' : '°C'}, wind ${now.windspeed} ${us ? 'mph' : 'km/h'}, code ${now.weathercode}.`,
        );
      }),
  );
}
