// Smoke call of the google-maps server: geocode one address. Offline, a fake of
// maps.googleapis.com answers in the Geocoding API's documented shape.
import type { ServerSmoke } from '../shared/smoke.js';

export const smoke: ServerSmoke = {
  tool: 'geocode',
  args: { address: '1600 Amphitheatre Parkway, Mountain View, CA', language: 'en' },
  expectation: 'a Geocoding response with status OK and a location',
  accept: (text) => /"status": "OK"/.test(text) && /"location": \{/.test(text),
  requiresEnv: ['GOOGLE_MAPS_API_KEY'],
  offline: {
    env: { M3_UPSTREAM_GOOGLE_MAPS_URL: '' },
    credentials: { GOOGLE_MAPS_API_KEY: 'offline-smoke-placeholder' },
    routes: [
      {
        path: '/maps/api/geocode/json',
        reply: {
          // Shape of the documented Geocoding example (developers.google.com/maps/documentation/geocoding/requests-geocoding).
          body: {
            results: [
              {
                formatted_address: '1600 Amphitheatre Pkwy, Mountain View, CA 94043, USA',
                geometry: { location: { lat: 37.4224428, lng: -122.0842467 }, location_type: 'ROOFTOP' },
                place_id: 'ChIJeRpOeF67j4AR9ydy_PIzPuM',
                types: ['street_address'],
              },
            ],
            status: 'OK',
          },
        },
      },
    ],
  },
};
