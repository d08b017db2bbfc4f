// Smoke call of the google-air server: current conditions at one point. Offline, a fake of
// airquality.googleapis.com answers with the documented basic currentConditions example.
import type { ServerSmoke } from '../shared/smoke.js';

export const smoke: ServerSmoke = {
  tool: 'current_conditions',
  args: { lat: 37.419734, lng: -122.0827784 },
  expectation: 'a currentConditions answer with a Universal AQI index',
  accept: (text) => /"indexes": \[/.test(text) && /"aqi": \d+/.test(text),
  requiresEnv: ['GOOGLE_MAPS_API_KEY'],
  offline: {
    env: { M3_UPSTREAM_GOOGLE_AIR_QUALITY_URL: '' },
    credentials: { GOOGLE_MAPS_API_KEY: 'offline-smoke-placeholder' },
    routes: [
      {
        path: '/v1/currentConditions:lookup',
        method: 'POST',
        // The basic request's response in developers.google.com/maps/documentation/air-quality/current-conditions.
        reply: {
          body: {
            dateTime: '2023-10-26T18:00:00Z',
            regionCode: 'us',
            indexes: [
              {
                code: 'uaqi',
                displayName: 'Universal AQI',
                aqi: 52,
                aqiDisplay: '52',
                color: { red: 0.9490196, green: 0.98039216, blue: 0.019607844 },
                category: 'Moderate air quality',
                dominantPollutant: 'no2',
              },
            ],
          },
        },
      },
    ],
  },
};
