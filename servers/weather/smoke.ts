// `m3 servers check --smoke` for `weather`: current weather for a ZIP code, which takes the
// Zippopotam.us lookup and the Open-Meteo forecast. Offline, the fake answers both in their
// documented shapes (the zippopotam.us example for 90210, a forecast with current_weather).
import type { ServerSmoke } from '../shared/smoke.js';

export const smoke: ServerSmoke = {
  tool: 'get_weather',
  args: { location: '90210', units: 'us' },
  expectation: '"Current weather in Beverly Hills, CA 90210: <t>°F, wind <w> mph, code <n>."',
  accept: (text) => /^Current weather in Beverly Hills, CA 90210: -?\d+(\.\d+)?°F, wind \d+(\.\d+)? mph, code \d+(\.0)?\.$/.test(text),
  offline: {
    env: { M3_UPSTREAM_ZIPPOPOTAM_URL: '/zip', M3_UPSTREAM_OPEN_METEO_URL: '/meteo', M3_UPSTREAM_OPEN_METEO_GEOCODING_URL: '/geo' },
    routes: [
      {
        path: '/zip/us/90210',
        reply: {
          body: {
            'post code': '90210',
            country: 'United States',
            'country abbreviation': 'US',
            places: [{ 'place name': 'Beverly Hills', longitude: '-118.4065', state: 'California', 'state abbreviation': 'CA', latitude: '34.0901' }],
          },
        },
      },
      {
        path: '/meteo/v1/forecast',
        reply: {
          body: {
            latitude: 34.09,
            longitude: -118.41,
            elevation: 82,
            current_weather: { temperature: 71.4, windspeed: 4.3, winddirection: 250, weathercode: 1, is_day: 1, time: '2025-11-18T20:00' },
          },
        },
      },
    ],
  },
};
