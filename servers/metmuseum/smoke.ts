// `m3 servers check --smoke` for `metmuseum-mcp`: the department list. Offline, the fake answers
// /departments in the Met Collection API's documented shape ({departments: [{departmentId, displayName}]}).
import type { ServerSmoke } from '../shared/smoke.js';

export const smoke: ServerSmoke = {
  tool: 'list-departments',
  args: {},
  expectation: 'lines "Department ID: <n>, Display Name: <name>", Egyptian Art among them',
  accept: (text) => text.split('\n').every((line) => /^Department ID: \d+, Display Name: .+$/.test(line)) && text.includes('Display Name: Egyptian Art'),
  offline: {
    env: { M3_UPSTREAM_MET_COLLECTION_URL: '/met', M3_UPSTREAM_MET_IMAGES_URL: '/images' },
    routes: [
      {
        path: '/met/departments',
        reply: {
          body: {
            departments: [
              { departmentId: 1, displayName: 'American Decorative Arts' },
              { departmentId: 10, displayName: 'Egyptian Art' },
              { departmentId: 13, displayName: 'Greek and Roman Art' },
            ],
          },
        },
      },
    ],
  },
};
