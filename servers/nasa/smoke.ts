// The smoke call of nasa-mcp: one DONKI solar-flare query for a fixed past day (a ground-truth
// call), answered offline by a fake serving one flare recorded from api.nasa.gov (equeim/spacer,
// donki/src/test/resources/.../events/datasets/FLR_2024-05-01_2024-05-31.json).
import type { ServerSmoke } from '../shared/smoke.js';

const recordedFlare = {
  flrID: '2024-05-09T00:58:00-FLR-001',
  instruments: [{ displayName: 'GOES-P: EXIS 1.0-8.0' }],
  beginTime: '2024-05-09T00:58Z',
  peakTime: '2024-05-09T01:15Z',
  endTime: '2024-05-09T01:57Z',
  classType: 'M1.8',
  sourceLocation: 'S20W19',
  activeRegionNum: 13664,
  submissionTime: '2024-05-09T16:18Z',
  versionId: 1,
  link: 'https://kauai.ccmc.gsfc.nasa.gov/DONKI/view/FLR/30614/-1',
  linkedEvents: null,
};

export const smoke: ServerSmoke = {
  tool: 'get_solar_flare',
  args: { start_date: '2025-01-03', end_date: '2025-01-03' },
  expectation: 'a JSON object with "count" and "events" (DONKI flares of 2025-01-03)',
  accept: (text) => {
    try {
      const parsed = JSON.parse(text) as { count?: unknown; events?: unknown };
      return typeof parsed.count === 'number' && Array.isArray(parsed.events);
    } catch {
      return false;
    }
  },
  offline: {
    env: { M3_UPSTREAM_NASA_URL: '' },
    routes: [{ path: '/DONKI/FLR', reply: { body: [recordedFlare] } }],
  },
};
