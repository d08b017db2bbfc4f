// Smoke call of the nationalparks server: find parks in one state. Offline, a fake of
// developer.nps.gov answers in the NPS API's documented /parks shape.
import type { ServerSmoke } from '../shared/smoke.js';

export const smoke: ServerSmoke = {
  tool: 'findParks',
  args: { stateCode: 'WY', limit: 1 },
  expectation: 'a JSON page with total and one park',
  accept: (text) => /"total": \d+/.test(text) && /"parks": \[\s*\{/.test(text),
  requiresEnv: ['NPS_API_KEY'],
  offline: {
    env: { M3_UPSTREAM_NPS_URL: '' },
    credentials: { NPS_API_KEY: 'offline-smoke-placeholder' },
    routes: [
      {
        path: '/api/v1/parks',
        // Shape of GET /parks (total/limit/start as strings, data[] of park records), nps.gov/subjects/developer/api-documentation.htm.
        reply: {
          body: {
            total: '7',
            limit: '1',
            start: '0',
            data: [
              {
                fullName: 'Yellowstone National Park',
                parkCode: 'yell',
                description: 'Visit Yellowstone.',
                states: 'ID,MT,WY',
                url: 'https://www.nps.gov/yell/index.htm',
                designation: 'National Park',
                activities: [],
                entranceFees: [],
                operatingHours: [],
                contacts: { phoneNumbers: [], emailAddresses: [] },
                images: [],
              },
            ],
          },
        },
      },
    ],
  },
};
